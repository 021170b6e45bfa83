"""What the data checkers (check_dlmc.py, check_mtx.py) print at the end."""


def report(label, checks, problems):
    """Adds `label: what disagrees` to `problems` for each failed (what, ok)
    in `checks`."""
    for what, ok in checks:
        if not ok:
            problems.append(f"{label}: {what} disagrees")


def finish(problems, agreed):
    """Prints the problems (exit status 1) or the line `agreed` (0)."""
    for problem in problems:
        print("error:", problem)
    if problems:
        return 1
    print(agreed)
    return 0
