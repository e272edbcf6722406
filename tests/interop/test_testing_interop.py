"""The testing library and tvm_ffi.testing under both implementations, by name: the same
``testing.*`` calls and type introspection must give the same answers on ours as on the
apache-tvm-ffi wheel."""

import json
import textwrap

PROBE = textwrap.dedent(
    """
    import json
    import tvm_ffi
    import tvm_ffi.testing as T
    from tvm_ffi import dataclasses as D
    from tvm_ffi.testing import _ffi_api as A

    out = {}
    out["add_one"] = A.add_one(41)
    out["echo"] = [A.echo(7), A.echo("hello"), list(A.echo([1, 2]))]
    out["schema_id_int"] = A.schema_id_int(3)
    out["object_use_count"] = A.object_use_count(tvm_ffi.convert([1]))
    pair = T.TestIntPair(3, 4)
    out["pair"] = [pair.a, pair.b, pair.sum(), A.TestIntPairSum(pair)]
    out["pair_fields"] = [f.name for f in D.fields(T.TestIntPair)]
    out["pair_match_args"] = list(T.TestIntPair.__match_args__)
    out["pair_docs"] = [T.TestIntPair.a.__doc__, T.TestIntPair.b.__doc__]
    replaced = pair.__replace__(a=9)
    out["replace"] = [replaced.a, replaced.b, pair.a]
    unreg = A.make_unregistered_object()
    out["unregistered"] = [
        type(unreg).__qualname__, unreg.v1, unreg.v2,
        unreg.get_v1_plus_one(), unreg.get_v2_plus_two(),
    ]
    regions = A.make_visit_region_graph(False)
    out["regions"] = [regions.simple, regions.pattern, regions.ordinary]
    hook = A.make_visit_region_graph(True)
    out["hook"] = type(hook).__name__
    base = T.create_object("testing.TestObjectBase", v_i64=5)
    out["base"] = [base.v_i64, base.v_f64, base.v_str]
    edges = T.create_object("testing.TestDeepCopyEdges", v_any=1, v_obj=None)
    out["edges"] = [edges.v_any, edges.v_obj is None]
    try:
        A.test_raise_error("ValueError", "boom")
    except ValueError as err:
        out["raise"] = ["ValueError", str(err).splitlines()[0]]
    out["gpu_lock"] = T.run_with_gpu_lock(lambda x: x * 2, 21)
    fields = {}
    for key in ["testing.TestVisitRegions", "testing.TestObjectDerived", "testing.TestCxxKwOnly"]:
        info = tvm_ffi.core._lookup_or_register_type_info_from_type_key(key)
        fields[key] = [
            [f.name, f.doc, f.frozen, f.c_init, f.c_kw_only, f.c_structural_eq]
            for f in info.fields
        ]
    out["fields"] = fields
    print(json.dumps(out, sort_keys=True))
    """
)


def _answers(run):
    proc = run(PROBE)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_testing_library_answers_as_the_wheels(run_under_ours, run_under_peer):
    ours = _answers(run_under_ours)
    peer = _answers(run_under_peer)
    assert ours == peer
