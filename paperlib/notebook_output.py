"""Executed notebooks without wall-clock time: the same tree gives byte-identical executed notebooks.

Papermill and nbclient stamp an executed notebook with what changes from run to run: start and
end times and durations (of the notebook and of every cell), the kernel's message timestamps
(``metadata.execution``), the paths of the run (papermill writes into a temporary file) and the
random id of the parameters cell papermill injects, the timings of progress bars in stream outputs,
the progress bar's intermediate frames (how many a bar draws depends on how long its points take: a
cold run draws one per update, a run that reads every point from the cache only the last), and where
the kernel happened to cut a stream's text into messages (consecutive pieces are joined).
:func:`normalise` removes them; everything that depends only on the inputs stays (parameters,
outputs, execution counts, papermill's status and exception fields, the input notebook's name).
:func:`normalise_file` rewrites an executed notebook in place; ``paperlib.run_notebook`` calls it
before the executed copy replaces the previous one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

#: Keys removed wherever papermill puts them (notebook and cell ``metadata.papermill``).
VOLATILE_PAPERMILL_KEYS = ("start_time", "end_time", "duration", "output_path")
#: Cell metadata written by nbclient with the kernel's timestamps.
VOLATILE_CELL_KEYS = ("execution",)
#: A tqdm progress bar's timing, e.g. "[00:03<00:00,  6.21it/s]" (the sweep runner's bar goes to stderr).
TQDM_TIMING = re.compile(r"\[\d+:\d{2}(?::\d{2})?<[^\]\n]*\]")


def normalise(nb: dict) -> dict:
    """Return ``nb`` (an nbformat JSON dict, changed in place) without times, durations or run paths."""
    meta = nb.setdefault("metadata", {})
    pm = meta.get("papermill")
    if isinstance(pm, dict):
        for key in VOLATILE_PAPERMILL_KEYS:
            pm.pop(key, None)
        if pm.get("input_path"):
            pm["input_path"] = Path(pm["input_path"]).name
    for cell in nb.get("cells", []):
        cmeta = cell.get("metadata", {})
        if "injected-parameters" in cmeta.get("tags", []):
            cell["id"] = "injected-parameters"  # papermill gives the cell it adds a random id
        for key in VOLATILE_CELL_KEYS:
            cmeta.pop(key, None)
        cpm = cmeta.get("papermill")
        if isinstance(cpm, dict):
            for key in VOLATILE_PAPERMILL_KEYS:
                cpm.pop(key, None)
        outputs = coalesce_streams(cell.get("outputs", []))
        for out in outputs:
            if out.get("output_type") == "stream":
                out["text"] = TQDM_TIMING.sub("[elapsed]", terminal_text(out["text"]))
        if "outputs" in cell:
            cell["outputs"] = outputs
    return nb


def terminal_text(text: str) -> str:
    r"""Return ``text`` as a terminal shows it: of each line, only what its last carriage return leaves.

    A progress bar redraws its line: each frame starts with ``"\r"`` and is padded with blanks to the
    width of the frame before it, so the terminal shows the last frame. Of a line holding a
    ``"\r"`` this keeps the last non-empty piece after a ``"\r"`` without its trailing blanks;
    lines without one stay as they are.
    """
    return "\n".join(_last_frame(line) for line in text.split("\n"))


def _last_frame(line: str) -> str:
    r"""Return the last non-empty ``"\r"``-separated piece of ``line``, without trailing blanks (see above)."""
    if "\r" not in line:
        return line
    frames = [frame for frame in line.split("\r") if frame]
    return frames[-1].rstrip(" ") if frames else ""


def coalesce_streams(outputs: list[dict]) -> list[dict]:
    """Return ``outputs`` with consecutive stream outputs of the same stream joined into one.

    How the kernel cuts a cell's printed text into stream messages depends on timing (a loaded machine
    may send ``"done"`` and a newline as two messages), not on the inputs; joined, the text is the same.
    Text becomes one string.
    """
    joined: list[dict] = []
    for out in outputs:
        if out.get("output_type") == "stream":
            text = "".join(out["text"]) if isinstance(out.get("text"), list) else out.get("text", "")
            last = joined[-1] if joined else None
            if last is not None and last.get("output_type") == "stream" and last.get("name") == out.get("name"):
                last["text"] += text
                continue
            out = {**out, "text": text}
        joined.append(out)
    return joined


def normalise_file(path: Path | str) -> Path:
    """Rewrite the executed notebook at ``path`` normalised (see :func:`normalise`); return the path.

    Written as nbformat writes it (one-space indent, keys sorted, a final newline), so the bytes
    depend only on the content.
    """
    path = Path(path)
    nb = normalise(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
