/*
 * JSON object graphs: any FFI value (PODs, strings, containers, reflected
 * objects) as a JSON value, and back.
 *
 *   json::Value g = ToJSONGraph(Array<Any>{1, "a"});
 *   // {"root_index":2,"nodes":[{"type":"int","data":1},
 *   //                          {"type":"ffi.String","data":"a"},
 *   //                          {"type":"ffi.Array","data":[0,1]}]}
 *   Any back = FromJSONGraph(g);   // Array{1, "a"}
 *
 * Every distinct value is one node {"type": <type key>, "data": <payload>};
 * children come before their parents and the root is last. Equal PODs and
 * strings, and the same object, share one node, so shared references stay
 * shared after a round trip. Objects are written field by field (ancestors'
 * fields first) and rebuilt through their reflection creator and setters.
 * Type keys, not type indices, are written, so graphs move between processes
 * and implementations. Both directions run in libtvm_ffi (globals
 * ffi.ToJSONGraph / ffi.FromJSONGraph); these inline wrappers call them.
 */
#ifndef TVM_FFI_EXTRA_SERIALIZATION_H_
#define TVM_FFI_EXTRA_SERIALIZATION_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/extra/json.h>
#include <tvm/ffi/function.h>

TVM_FFI_NAMESPACE_BEGIN

/*!
 * \brief Write a value as a JSON object graph.
 * \param value The value.
 * \param metadata Stored verbatim under "metadata" unless None.
 * \return A Map {"root_index": int, "nodes": [...], ("metadata": ...)}.
 * \throws Error TypeError for objects without a creator, RuntimeError for
 *  PODs that have no JSON form (e.g. opaque pointers), ValueError when a
 *  List, Dict or object contains itself.
 */
inline json::Value ToJSONGraph(const Any& value, const Any& metadata = Any(nullptr)) {
  static const Function to_graph = Function::GetGlobalRequired("ffi.ToJSONGraph");
  return to_graph(value, metadata);
}

/*!
 * \brief Rebuild a value from a JSON object graph.
 * \param value A graph as written by ToJSONGraph (any node order).
 * \return The root value.
 * \throws Error ValueError for a malformed graph, the registry's error for an
 *  unknown type key, TypeError for a missing required field.
 */
inline Any FromJSONGraph(const json::Value& value) {
  static const Function from_graph = Function::GetGlobalRequired("ffi.FromJSONGraph");
  return from_graph(value);
}

TVM_FFI_NAMESPACE_END

#endif  // TVM_FFI_EXTRA_SERIALIZATION_H_
