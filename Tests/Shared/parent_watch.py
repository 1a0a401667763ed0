"""For the tests' helper servers (Python): `exit_with_parent()` ends the server when the test process that
started it is gone. A test runner that crashed once left a server serving, holding the CI run's output
open, and that run waited on it until its time ran out."""
import os
import threading
import time


def exit_with_parent():
    """Starts a thread that exits the process once its parent has changed (the parent died)."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()

