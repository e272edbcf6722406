"""Maps, Dicts and Lists crossing between our runtime and code compiled with the
apache-tvm-ffi wheel's headers (which manipulates them inline), both ways."""

import os
import textwrap

import pytest

LIB_SOURCE = os.path.join(os.path.dirname(__file__), "libs", "map_interop_lib.cc")
SIZES = [3, 1500]
KINDS = [0, 1, 2]  # int keys, short string keys, long string keys


def _key(i, kind):
    if kind == 0:
        return i * 7 + 1
    if kind == 1:
        return "k%d" % i
    return "a rather long key number %d" % i


def _source():
    with open(LIB_SOURCE) as f:
        return f.read()


@pytest.fixture(scope="module")
def tvm_ffi():
    import tvm_ffi

    return tvm_ffi


@pytest.fixture(scope="module")
def peer_lib(tvm_ffi, build_with_peer_headers):
    return tvm_ffi.load_module(str(build_with_peer_headers("map_interop", _source())))


@pytest.fixture(scope="module")
def our_lib(tvm_ffi, build_with_our_headers):
    return tvm_ffi.load_module(str(build_with_our_headers("map_interop", _source())))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_peer_built_map_reads_here(peer_lib, n, kind):
    m = peer_lib["make_map"](n, kind)
    assert len(m) == n
    for i in range(n):
        assert m[_key(i, kind)] == i * 10
    assert list(m.keys()) == [_key(i, kind) for i in range(n)]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_our_map_reads_in_peer_code(tvm_ffi, peer_lib, n, kind):
    m = tvm_ffi.Map({_key(i, kind): i * 10 for i in range(n)})
    assert peer_lib["check_map"](m, n, kind) == 0


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_peer_code_grows_and_erases_our_map(tvm_ffi, peer_lib, our_lib, n, kind):
    m = tvm_ffi.Map({_key(i, kind): i * 10 for i in range(n)})
    grown = peer_lib["grow_and_erase"](m, n, n + 700, kind)
    assert our_lib["check_grown_map"](grown, n, n + 700, kind) == 0
    expect = [_key(i, kind) for i in range(n + 700) if i >= n or i % 2 == 1]
    assert sorted(map(str, grown.keys())) == sorted(map(str, expect))
    assert len(m) == n  # copy-on-write left the original alone


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_our_code_grows_and_erases_peer_map(peer_lib, our_lib, n, kind):
    m = peer_lib["make_map"](n, kind)
    grown = our_lib["grow_and_erase"](m, n, n + 700, kind)
    assert peer_lib["check_grown_map"](grown, n, n + 700, kind) == 0


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("kind", KINDS)
def test_peer_code_mutates_our_dict_in_place(tvm_ffi, peer_lib, our_lib, n, kind):
    d = tvm_ffi.Dict({_key(i, kind): i * 10 for i in range(n)})
    peer_lib["dict_grow_and_erase"](d, n, n + 700, kind)
    assert our_lib["check_grown_dict"](d, n, n + 700, kind) == 0
    assert d[_key(n + 1, kind)] == (n + 1) * 10
    with pytest.raises(KeyError):
        d[_key(0, kind)]


@pytest.mark.parametrize("n", SIZES)
def test_our_code_mutates_peer_dict_in_place(peer_lib, our_lib, n):
    d = peer_lib["make_dict"](n, 1)
    our_lib["dict_grow_and_erase"](d, n, n + 700, 1)
    assert peer_lib["check_grown_dict"](d, n, n + 700, 1) == 0


def test_object_keys_cross_by_identity(tvm_ffi, peer_lib):
    keys = [tvm_ffi.Array([i]) for i in range(50)]
    m = tvm_ffi.Map({k: i for i, k in enumerate(keys)})
    for i, k in enumerate(keys):
        assert peer_lib["map_get"](m, k) == i
    with pytest.raises(KeyError):
        peer_lib["map_get"](m, tvm_ffi.Array([0]))


def test_peer_code_sets_object_keys_in_our_dict(tvm_ffi, peer_lib):
    d = tvm_ffi.Dict()
    keys = [tvm_ffi.Array([i]) for i in range(40)]
    for i, k in enumerate(keys):
        peer_lib["dict_set"](d, k, i)
    assert [d[k] for k in keys] == list(range(40))


def test_peer_code_push_backs_into_our_list(tvm_ffi, peer_lib):
    lst = tvm_ffi.List([100, 101])
    out = peer_lib["list_push_back"](lst, 300)
    assert list(out) == [100, 101] + list(range(300))
    assert len(lst) == 302  # the same list, grown in place


def test_dense_overwrite_order_agrees(tvm_ffi, peer_lib, our_lib):
    m = peer_lib["make_map"](10, 0)
    assert list(peer_lib["map_keys"](m)) == list(our_lib["map_keys"](m))


def test_map_built_with_our_headers_reads_under_peer(build_with_our_headers, run_under_peer):
    lib = build_with_our_headers("map_interop", _source())
    script = textwrap.dedent(
        """
        import tvm_ffi
        lib = tvm_ffi.load_module(%r)
        for n in (3, 1500):
            for kind in (0, 1, 2):
                m = lib["make_map"](n, kind)
                assert len(m) == n
                assert lib["check_map"](m, n, kind) == 0
                keys = list(m.keys())
                assert len(keys) == n
                for i, k in enumerate(keys):
                    assert m[k] == i * 10, (n, kind, k)
                d = lib["make_dict"](n, kind)
                d[12345678] = 1  # edited by the peer's runtime in place
                assert len(d) == n + 1 and d[12345678] == 1
                del d[12345678]
                assert lib["check_dict"](d, n, kind) == 0
                pm = tvm_ffi.Map({("k%%d" %% i): i * 10 for i in range(n)})
                assert lib["check_map"](pm, n, 1) == 0
        lst = tvm_ffi.List([1, 2])
        lib["list_push_back"](lst, 50)
        assert len(lst) == 52
        print("ok")
        """
        % str(lib)
    )
    res = run_under_peer(script)
    assert res.returncode == 0 and "ok" in res.stdout, res.stdout + res.stderr


CROWDED_SEEDS = range(6)


def test_peer_crowded_tables_use_far_jumps(peer_lib):
    assert (
        max(peer_lib["max_jump_index"](peer_lib["make_crowded_dict"](s)) for s in CROWDED_SEEDS)
        >= 82
    )


@pytest.mark.parametrize("seed", CROWDED_SEEDS)
def test_peer_built_crowded_dict_reads_and_erases_in_our_code(peer_lib, our_lib, seed):
    d = peer_lib["make_crowded_dict"](seed)
    assert our_lib["check_crowded_dict"](d, seed, False) == 0
    assert our_lib["check_crowded_dict"](d, seed, True) == 0
    assert peer_lib["check_crowded_dict"](d, seed, False) > 0  # the erases happened in place


@pytest.mark.parametrize("seed", CROWDED_SEEDS)
def test_our_crowded_dict_reads_and_erases_in_peer_code(peer_lib, our_lib, seed):
    d = our_lib["make_crowded_dict"](seed)
    assert peer_lib["check_crowded_dict"](d, seed, False) == 0
    assert peer_lib["check_crowded_dict"](d, seed, True) == 0
    assert our_lib["check_crowded_dict"](d, seed, False) > 0
