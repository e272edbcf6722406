"""xgrammar on this tvm_ffi: compiles a JSON-schema grammar over a small vocabulary, fills a
token mask and matches a string; prints "ok <step>" per step."""

import json

import xgrammar as xgr

vocab = ["<eos>", "{", "}", '"', "a", "b", ":", ",", " ", "1", "2", "true", "false", "[", "]"]
info = xgr.TokenizerInfo(vocab, stop_token_ids=[0])
compiler = xgr.GrammarCompiler(info)
schema = {
    "type": "object",
    "properties": {"a": {"type": "integer"}},
    "required": ["a"],
    "additionalProperties": False,
}
compiled = compiler.compile_json_schema(json.dumps(schema))
print("ok compile_json_schema", flush=True)

matcher = xgr.GrammarMatcher(compiled)
mask = xgr.allocate_token_bitmask(1, info.vocab_size)
matcher.fill_next_token_bitmask(mask)
allowed = [i for i in range(info.vocab_size) if (int(mask[0, i // 32]) >> (i % 32)) & 1]
assert allowed == [vocab.index("{")], allowed
print("ok token_mask", flush=True)

for token in ["{", '"', "a", '"', ":", " ", "1", "2", "}"]:
    assert matcher.accept_token(vocab.index(token)), token
assert not matcher.accept_token(vocab.index("{"))
assert matcher.accept_token(0) and matcher.is_terminated()
print("ok grammar_match", flush=True)
