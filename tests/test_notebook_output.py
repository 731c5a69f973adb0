"""An executed notebook without its volatile fields (paperlib.notebook_output)."""

import json

from paperlib.notebook_output import normalise, normalise_file


def test_normalise_removes_only_volatile_fields():
    nb = {"metadata": {"papermill": {"start_time": "2026-01-01T00:00:00", "end_time": "x", "duration": 1.5,
                                     "input_path": "/abs/notebooks/a.ipynb", "output_path": "/tmp/.a.xyz.ipynb",
                                     "parameters": {"p": 1}, "exception": None}},
          "cells": [{"metadata": {"execution": {"iopub.status.busy": "t"}, "tags": ["parameters"],
                                  "papermill": {"duration": 0.1, "status": "completed"}},
                     "outputs": [{"text": "42"}], "execution_count": 1, "id": "a1"},
                    {"metadata": {"tags": ["injected-parameters"]}, "id": "9f3e0c1d",
                     "outputs": [{"output_type": "stream", "name": "stderr",
                                  "text": ["002 ns-3 TCP: 100%|##########| 21/21 [00:03<00:00,  6.21it/s]\n"]}]}]}
    out = normalise(nb)
    assert [c["id"] for c in out["cells"]] == ["a1", "injected-parameters"]
    assert out["cells"][1]["outputs"][0]["text"] == "002 ns-3 TCP: 100%|##########| 21/21 [elapsed]\n"
    assert out["metadata"]["papermill"] == {"input_path": "a.ipynb", "parameters": {"p": 1}, "exception": None}
    assert out["cells"][0]["metadata"] == {"tags": ["parameters"], "papermill": {"status": "completed"}}
    assert out["cells"][0]["outputs"] == [{"text": "42"}] and out["cells"][0]["execution_count"] == 1


def test_normalise_file_writes_what_nbformat_would_and_is_idempotent(tmp_path):
    nb = {"nbformat": 4, "metadata": {"papermill": {"duration": 2.0, "parameters": {}}},
          "cells": [{"id": "c1", "metadata": {"execution": {"shell.execute_reply": "t"}}, "outputs": []}]}
    path = tmp_path / "run.ipynb"
    path.write_text(json.dumps(nb))
    assert normalise_file(path) == path
    text = path.read_text(encoding="utf-8")
    # keys sorted, one-space indent, a final newline; the volatile fields gone
    assert text == json.dumps(json.loads(text), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert '"duration"' not in text and '"execution"' not in text
    normalise_file(path)
    assert path.read_text(encoding="utf-8") == text


def test_consecutive_pieces_of_one_stream_are_joined_whatever_the_cut():
    from paperlib.notebook_output import coalesce_streams

    cut_once = [{"output_type": "stream", "name": "stdout", "text": "ns-3 check skipped\n"}]
    cut_twice = [{"output_type": "stream", "name": "stdout", "text": ["ns-3 check ", "skipped"]},
                 {"output_type": "stream", "name": "stdout", "text": "\n"}]
    assert coalesce_streams(cut_twice) == coalesce_streams(cut_once) == cut_once
    # another stream, or any other output between them, keeps them apart (their order is content)
    mixed = [{"output_type": "stream", "name": "stdout", "text": "a"},
             {"output_type": "stream", "name": "stderr", "text": "b"},
             {"output_type": "stream", "name": "stdout", "text": "c"},
             {"output_type": "display_data", "data": {"text/plain": "x"}, "metadata": {}},
             {"output_type": "stream", "name": "stdout", "text": "d"}]
    assert [o.get("text") for o in coalesce_streams(mixed)] == ["a", "b", "c", None, "d"]


def _bar_stream(frames: list[str], end: str = "\n") -> dict:
    """A stderr stream as tqdm writes it: each frame after a carriage return, padded to the previous frame's width."""
    text, width = "", 0
    for frame in frames:
        text += "\r" + frame + " " * max(width - len(frame), 0)
        width = len(frame)
    return {"output_type": "stream", "name": "stderr", "text": text + end}


def test_a_cold_progress_bar_and_a_warm_one_leave_the_same_text():
    from paperlib.notebook_output import normalise

    # cold: every point computed, one frame per update; the 1/2 frame's timing is wider than the last one's, so
    # tqdm pads the last frame with blanks. warm: every point read from the cache, the bar starts full.
    cold = _bar_stream(["000 ns-3: 0%| | 0/2 [00:00<?, ?it/s]", "000 ns-3: 50%|# | 1/2 [00:09<00:09, 10.52s/it]",
                        "000 ns-3: 100%|##| 2/2 [00:18<00:00, 9.1s/it]"])
    warm = _bar_stream(["000 ns-3: 100%|##| 2/2 [00:00<?, ?it/s]", "000 ns-3: 100%|##| 2/2 [00:00<00:00, 3e+3it/s]"])
    texts = [normalise({"cells": [{"metadata": {}, "outputs": [out]}]})["cells"][0]["outputs"][0]["text"]
             for out in (cold, warm)]
    assert texts == ["000 ns-3: 100%|##| 2/2 [elapsed]\n"] * 2


def test_terminal_text_keeps_what_the_last_carriage_return_leaves_of_each_line():
    from paperlib.notebook_output import terminal_text

    assert terminal_text("plain\ntext  \n") == "plain\ntext  \n"  # no carriage return: untouched, blanks kept
    assert terminal_text("\ra\rb\nc\n") == "b\nc\n"  # one line redrawn, the next one not
    assert terminal_text("done\r") == "done"  # a trailing carriage return erases nothing
    assert terminal_text("\rlonger frame\rshort   \rend") == "end"  # the pieces need not end with a newline
    assert terminal_text("\r\r\n") == "\n"
