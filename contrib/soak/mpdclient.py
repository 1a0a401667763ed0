"""A raw MPD client over a Unix socket for the soak and power-cut harnesses.

Raw, not python-mpd2: the soak sends lines python-mpd2 refuses to build (invalid quoting, binary,
oversized lines, a command list left open) and stops reading answers half way on purpose.
"""
import socket


class Ack(Exception):
    """The server answered ACK: the line is the message."""


class Closed(Exception):
    """The server closed the connection (or it broke) before a whole answer arrived."""


class Conn:
    def __init__(self, path, timeout=30.0):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.s.settimeout(timeout)
        try:
            self.s.connect(path)
        except OSError:
            self.s.close()
            raise
        self.buf = b""
        greeting = self.readline()
        if not greeting.startswith("OK MPD "):
            self.close()
            raise Closed("no greeting: %r" % greeting)

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass

    def send(self, data):
        if isinstance(data, str):
            data = data.encode()
        try:
            self.s.sendall(data)
        except OSError as e:
            raise Closed(str(e))

    def readline(self):
        while b"\n" not in self.buf:
            try:
                chunk = self.s.recv(65536)
            except socket.timeout:
                raise
            except OSError as e:
                raise Closed(str(e))
            if not chunk:
                raise Closed("end of stream")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def answer(self):
        """The lines of one answer up to OK (returned without it); ACK raises Ack."""
        lines = []
        while True:
            line = self.readline()
            if line == "OK":
                return lines
            if line.startswith("ACK "):
                raise Ack(line)
            lines.append(line)

    def cmd(self, line):
        self.send(line + "\n")
        return self.answer()

    def pairs(self, line):
        out = {}
        for l in self.cmd(line):
            k, _, v = l.partition(": ")
            out[k] = v
        return out

    def files(self, line):
        return [l[6:] for l in self.cmd(line) if l.startswith("file: ")]


def quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
