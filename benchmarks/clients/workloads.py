"""Work real clients do through tvm_ffi, timed inside one interpreter (run by bench_clients.py).

Usage: python workloads.py WORKLOAD ROUNDS

Prints one line: the best of ROUNDS wall-clock timings of WORKLOAD in seconds. The process
imports whichever tvm_ffi its environment holds (this tree's or the apache-tvm-ffi wheel), so
the same file measures both. `import_tvm` is timed by the parent (a fresh process per round).
"""

import json
import sys
import time


def relax_model():
    from tvm.script import ir as I
    from tvm.script import relax as R

    @I.ir_module
    class Model:
        @R.function
        def main(x: R.Tensor((4, 8), "float32"), w: R.Tensor((8, 3), "float32")):
            with R.dataflow():
                y = R.matmul(x, w)
                z = R.nn.relu(y)
                s = R.sum(z, axis=1)
                R.output(s)
            return s

    return Model


def tvmscript_roundtrip():
    """TVMScript printing of a small Relax model and parsing the text back."""
    import tvm

    model = relax_model()

    def run():
        text = model.script()
        parsed = tvm.script.from_source(text)
        tvm.ir.assert_structural_equal(parsed, model)

    return run


def relax_build():
    """The default Relax build pipeline of the same model for the CPU."""
    import tvm

    model = relax_model()
    return lambda: tvm.compile(model, target="llvm")


def xgrammar_json_schema():
    """xgrammar: compile a JSON-schema grammar over a small vocabulary and fill a token mask."""
    import xgrammar as xgr

    vocab = ["<eos>", "{", "}", '"', "a", "b", ":", ",", " ", "1", "2", "true", "false", "[", "]"]
    schema = json.dumps(
        {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "boolean"}},
            "required": ["a"],
            "additionalProperties": False,
        }
    )

    def run():
        info = xgr.TokenizerInfo(vocab, stop_token_ids=[0])
        compiled = xgr.GrammarCompiler(info, cache_enabled=False).compile_json_schema(schema)
        matcher = xgr.GrammarMatcher(compiled)
        mask = xgr.allocate_token_bitmask(1, info.vocab_size)
        for token in ["{", '"', "a", '"', ":", " ", "1"]:
            matcher.fill_next_token_bitmask(mask)
            assert matcher.accept_token(vocab.index(token)), token

    return run


WORKLOADS = {
    "tvmscript_roundtrip": tvmscript_roundtrip,
    "relax_build": relax_build,
    "xgrammar_json_schema": xgrammar_json_schema,
}


def main():
    name, rounds = sys.argv[1], int(sys.argv[2])
    run = WORKLOADS[name]()
    run()  # warm-up: first-call caches and lazy imports are not what is compared
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    print("%.6f" % best, flush=True)


if __name__ == "__main__":
    main()
