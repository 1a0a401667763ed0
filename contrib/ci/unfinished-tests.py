#!/usr/bin/env python3
"""After a failed `swift test` (contrib/test.sh), from its log: the tests that started and never ended
(the one a crash killed is among them), the failed ones, and the crash's own lines. Swift Testing's
and XCTest's console lines both."""
import collections
import re
import sys

started = collections.Counter()
order = []
failed = []
crash = []
for line in open(sys.argv[1], errors="replace"):
    line = line.rstrip("\n")
    if line.endswith(" started.") and (" Test case passing " in line or line.endswith(" Test run started.")):
        continue  # a parameterized test's case (its test ends as a whole), and the run itself
    m = re.match(r"^\S+ Test (.+?) started\.$", line) or re.match(r"^Test Case '(.+)' started\.$", line)
    if m:
        started[m.group(1)] += 1
        order.append(m.group(1))
        continue
    m = (re.match(r"^\S+ Test (.+?)(?: with \d+ test cases?)? (passed|failed|skipped)\b", line)
         or re.match(r"^Test Case '(.+)' (passed|failed|skipped)\b", line))
    if m:
        started[m.group(1)] -= 1
        if m.group(2) == "failed":
            failed.append(m.group(1))
        continue
    if re.search(r"Fatal error|Program crashed|crashed:$|Exited with unexpected signal|error: Exited", line):
        crash.append(line)

unfinished = [name for name in dict.fromkeys(order) if started[name] > 0]
print("[test] the failed run, again:")
# Tests run side by side: a crash leaves many unfinished; the latest started are the likeliest.
if len(unfinished) > 20:
    print(f"[test]   {len(unfinished)} tests started and never ended; the last 20 to start:")
for name in unfinished[-20:]:
    print(f"[test]   started, never ended: {name}")
for name in dict.fromkeys(failed):
    print(f"[test]   failed: {name}")
for line in crash[:20]:
    print(f"[test]   {line}")
