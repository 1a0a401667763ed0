#!/usr/bin/env python3
"""Writes the evemu traces of the wheel decoder tests (run from this folder; output is committed).

The touchpad has ABS_X/ABS_Y 0..1000 (centre 500) and multitouch slot 0; a finger on the ring sits
at radius 400. Angles are screen angles: 0 = right, 90 = bottom (clockwise), as the decoder sees them.
"""
import math

EV_SYN, EV_KEY, EV_REL, EV_ABS = 0, 1, 2, 3
SYN_REPORT, SYN_DROPPED = 0, 3
BTN_TOUCH = 0x14A
ABS_X, ABS_Y, MT_SLOT, MT_X, MT_Y, MT_ID = 0x00, 0x01, 0x2F, 0x35, 0x36, 0x39
REL_X = 0


class Trace:
    def __init__(self, name, description):
        self.name, self.lines, self.t = name, [f"# {description}\n", "N: test touchpad\n"], 1.0

    def ev(self, type_, code, value):
        self.lines.append(f"E: {self.t:.6f} {type_:04x} {code:04x} {value}\n")

    def syn(self, dt=0.012):
        self.ev(EV_SYN, SYN_REPORT, 0)
        self.t += dt

    def point(self, angle, radius=400, mt=True, single=True):
        x = round(500 + radius * math.cos(math.radians(angle)))
        y = round(500 + radius * math.sin(math.radians(angle)))
        if mt:
            self.ev(EV_ABS, MT_X, x)
            self.ev(EV_ABS, MT_Y, y)
        if single:
            self.ev(EV_ABS, ABS_X, x)
            self.ev(EV_ABS, ABS_Y, y)

    def down(self, angle, radius=400, mt=True, single=True):
        if mt:
            self.ev(EV_ABS, MT_SLOT, 0)
            self.ev(EV_ABS, MT_ID, 17)
        self.point(angle, radius, mt, single)
        if single:
            self.ev(EV_KEY, BTN_TOUCH, 1)
        self.syn()

    def up(self, mt=True, single=True):
        if mt:
            self.ev(EV_ABS, MT_ID, -1)
        if single:
            self.ev(EV_KEY, BTN_TOUCH, 0)
        self.syn()

    def arc(self, start, degrees, sample=7.0, **kw):
        step = sample if degrees > 0 else -sample
        a = start
        while abs(a + step - start) < abs(degrees):
            a += step
            self.point(a, **kw)
            self.syn()
        self.point(start + degrees, **kw)
        self.syn()

    def write(self):
        with open(self.name, "w") as f:
            f.writelines(self.lines)


t = Trace("circle-450-cw.evemu", "one finger, 450 degrees clockwise from 3 o'clock, through 0/360; 15 deg/step -> 30")
t.down(0)
t.arc(0, 450)
t.up()
t.write()

t = Trace("circle-360-ccw-mt.evemu", "multitouch only, 360 degrees anticlockwise from 12 o'clock, 11 deg samples -> -24")
t.down(270, single=False)
t.arc(270, -360, sample=11.0, single=False)
t.up(single=False)
t.write()

t = Trace("taps.evemu", "taps at top, right, bottom, left, then the centre held 800 ms")
for angle in (270, 0, 90, 180):
    t.down(angle)
    t.syn(0.060)
    t.up()
    t.t += 0.3
t.down(0, radius=50)
t.t += 0.8
t.up()
t.write()

t = Trace("lift-and-dropped.evemu", "40 deg clockwise, lift, 40 deg again, then SYN_DROPPED mid-turn and 40 deg more")
for start in (10, 100):
    t.down(start)
    t.arc(start, 40, sample=5.0)
    t.up()
    t.t += 0.2
t.down(200)
t.arc(200, 20, sample=5.0)
t.ev(EV_SYN, SYN_DROPPED, 0)
t.point(230)
t.syn()
t.down(240)
t.arc(240, 40, sample=5.0)
t.up()
t.write()

t = Trace("rotary-2-per-detent.evemu", "REL_X, 2 events per detent: 3 detents cw, half a detent and back, 2 ccw, SYN_DROPPED")
t.lines[1] = "N: rotary encoder\n"
for v in [1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1]:
    t.ev(EV_REL, REL_X, v)
    t.syn(0.05)
t.ev(EV_REL, REL_X, 1)
t.ev(EV_SYN, SYN_DROPPED, 0)
t.syn(0.05)
t.ev(EV_REL, REL_X, 1)
t.syn(0.05)
t.write()
