#!/usr/bin/env python3
"""Plays a list of request lines to an MPD-protocol socket and writes each answer's last line.

Usage: record-transcript.py [--full] SOCKET < commands.txt > transcript.txt

The input holds `# comments`, `## section` headers and `C: line` requests. Each section runs on a
connection of its own; `{id}` in a request stands for the Id the section's last `addid` answered,
and `\n` for a line break (a command list sent as one request). The output repeats the input with
an `S: OK` or `S: ACK …` line after every request: the answer a test then expects byte for byte;
with `--full`, every line of the answer, each as an `S: ` line. Record against a real MPD (see
Tests/EndToEndTests/Transcripts/) to make a fixture; run it against ClickWheel to see where the two
differ.
"""
import socket
import sys


class Connection:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(path)
        self.file = self.sock.makefile("rb")
        self.file.readline()  # greeting

    def request(self, line):
        """Sends one line; returns (body lines, final line)."""
        self.sock.sendall(line.encode() + b"\n")
        body = []
        while True:
            raw = self.file.readline()
            if not raw:
                return body, "<connection closed>"
            text = raw.decode("utf-8", "replace").rstrip("\n")
            if text == "OK" or text.startswith("ACK "):
                return body, text
            body.append(text)

    def close(self):
        self.sock.close()


def main():
    args = sys.argv[1:]
    full = "--full" in args
    path = [a for a in args if a != "--full"][0]
    conn = None
    last_id = None
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if line.startswith("S: "):
            continue  # an earlier recording's answer
        print(line)
        if line.startswith("## "):
            if conn:
                conn.close()
            conn, last_id = Connection(path), None
        elif line.startswith("C: "):
            if conn is None:
                conn = Connection(path)
            request = line[3:].replace("{id}", last_id or "").replace("\\n", "\n")
            body, final = conn.request(request)
            for field in body:
                if request.startswith("addid") and field.startswith("Id: "):
                    last_id = field[4:]
                if full:
                    print("S: " + field)
            print("S: " + final)
    if conn:
        conn.close()


if __name__ == "__main__":
    main()
