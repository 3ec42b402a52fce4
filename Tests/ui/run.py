#!/usr/bin/python3
"""Runs every UI test (Tests/ui/test_*.py, functions named test_*) against the gtkprogress binary given as the
first argument, under the current X display and D-Bus session. Prints one line per test and the totals."""

import importlib.util
import os
import tempfile
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def main():
    binary = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".build/debug/gtkprogress")
    # Further arguments: run only the tests whose "file:name" contains one of them.
    only = sys.argv[2:]
    os.environ.setdefault("GTK_A11Y", "atspi")
    # Screenshots and the viewers' log (harness.ARTIFACTS) in a folder of this run's own unless UI_ARTIFACTS names
    # one: a run beside another (a second worktree) would read the other's warnings as its own.
    if not os.environ.get("UI_ARTIFACTS"):
        os.environ["UI_ARTIFACTS"] = tempfile.mkdtemp(prefix="gtkprogress-ui-")
    print(f"UI test artifacts: {os.environ['UI_ARTIFACTS']}", flush=True)
    # Anything started outside harness.App (a second launch, the desktop entry) keeps its session away from the
    # user's own too; harness.App gives each app a directory of its own.
    os.environ["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="gtkprogress-ui-state-")
    os.environ.pop("NO_AT_BRIDGE", None)
    # The tests read English names and messages unless they ask for a language (test_translations.py).
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        os.environ.pop(name, None)
    os.environ["LANG"] = "C.UTF-8"
    passed = failed = 0
    failures = []
    retried = []
    for name in sorted(os.listdir(HERE)):
        if not (name.startswith("test_") and name.endswith(".py")):
            continue
        spec = importlib.util.spec_from_file_location(name[:-3], os.path.join(HERE, name))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for test_name in sorted(n for n in dir(module) if n.startswith("test_")):
            if only and not any(part in f"{name}:{test_name}" for part in only):
                continue
            # A test that fails is run once more, from a fresh window: a UI test drives a real X server, session
            # bus and accessibility bus, whose timing a loaded machine can upset. It counts as passed only when the
            # second run passes, and is named after the totals either way.
            for attempt in (1, 2):
                start = time.monotonic()
                try:
                    getattr(module, test_name)(binary)
                except Exception:
                    print(f"FAIL {name}:{test_name} ({time.monotonic() - start:.1f} s)", flush=True)
                    traceback.print_exc()
                    if attempt == 2:
                        failed += 1
                        failures.append(f"{name}:{test_name}")
                    else:
                        print(f"RETRY {name}:{test_name}", flush=True)
                    continue
                passed += 1
                if attempt == 2:
                    retried.append(f"{name}:{test_name}")
                print(f"PASS {name}:{test_name} ({time.monotonic() - start:.1f} s)", flush=True)
                break
    # The failures named again last, where a log cut to its tail still shows them.
    for failure in failures:
        print(f"FAILED {failure}")
    for test in retried:
        print(f"PASSED ON THE SECOND RUN {test}")
    print(f"UI tests: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


if __name__ == "__main__":
    main()
