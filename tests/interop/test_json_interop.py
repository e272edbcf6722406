"""ffi.json.Parse / ffi.json.Stringify against the apache-tvm-ffi wheel (run as a black box
in its own process): the same random texts give the same values, printed alike (compact
and indented), or the same error message."""

import json
import random

import pytest

TOKENS = [
    "[", "]", "{", "}", ",", ":", '"a"', '"k"', "1", "-2", "2.5", "1e3", "-0", "01", ".5",
    "+1", "1.", "true", "false", "null", "NaN", "Infinity", "-Infinity", " ", "\n", "\t",
    '"\\n\\u00e9"', '"\\ud83d\\ude00"', '"\\ud83d"', '"\\q"', '"', "\\", "\x01", "tru", "-",
    "1e400", "0x1", "\x7f", "\u00e9", '"\\/"', "99999999999999999999",
]  # fmt: skip

PROBE = """
import json, sys
import tvm_ffi
parse = tvm_ffi.get_global_func("ffi.json.Parse")
stringify = tvm_ffi.get_global_func("ffi.json.Stringify")
out = []
for text in json.load(open(sys.argv[1])):
    try:
        v = parse(text)
        out.append(["ok", stringify(v, None), stringify(v, 2)])
    except Exception as e:  # noqa: BLE001
        out.append([type(e).__name__, str(e).strip().splitlines()[-1]])
print(json.dumps(out))
"""


def _texts():
    rng = random.Random(20261202)
    texts = []
    for _ in range(3000):
        n = rng.randrange(0, 10)
        texts.append("".join(rng.choice(TOKENS) for _ in range(n)))
    # Well-formed documents too, so that successful parses are compared often.
    for _ in range(300):
        doc = {"a": [rng.random(), rng.randrange(-10, 10), None, True], "s": "x\ty\u00e9"}
        texts.append(json.dumps(doc, indent=rng.choice([None, 1, 3])))
    return texts


@pytest.fixture(scope="module")
def texts_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("json_texts") / "texts.json"
    path.write_text(json.dumps(_texts()))
    return path


def _results(run, path):
    proc = run(PROBE, path)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_parse_and_stringify_agree_with_the_wheel(texts_file, run_under_peer, run_under_ours):
    texts = json.loads(texts_file.read_text())
    peer = _results(run_under_peer, texts_file)
    ours = _results(run_under_ours, texts_file)
    assert len(peer) == len(ours) == len(texts)
    mismatches = [(t, p, o) for t, p, o in zip(texts, peer, ours) if p != o]
    assert not mismatches, "%d mismatches, first ones: %r" % (len(mismatches), mismatches[:5])
    assert sum(1 for r in ours if r[0] == "ok") > 300
