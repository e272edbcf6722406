/*
 * VisitErrorContext: the type's registration and FindAccessPaths, which
 * turns the visit trail an error collected into AccessPaths from a root.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/extra/visit_error_context.h>
#include <tvm/ffi/reflection/accessor.h>
#include <tvm/ffi/reflection/registry.h>

#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

using reflection::AccessPath;

/*! \brief Depth-first search of root for the nodes of a trail, outermost first. */
class AccessPathFinder {
 public:
  AccessPathFinder(std::vector<const Object*> pattern, bool allow_prefix_match)
      : pattern_(std::move(pattern)), allow_prefix_match_(allow_prefix_match) {}

  Array<AccessPath> Run(const ObjectRef& root) {
    Search(Any(root), AccessPath::Root(), 0);
    return Array<AccessPath>(results_);
  }

 private:
  /*! \return Whether this subtree recorded a path. */
  bool Search(const Any& value, const AccessPath& path, size_t matched) {
    if (value.type_index() < kTVMFFIStaticObjectBegin) return false;
    const Object* obj = value.as<Object>();
    bool advanced = false;
    if (matched < pattern_.size() && obj == pattern_[matched]) {
      ++matched;
      advanced = true;
    }
    if (matched == pattern_.size() && !pattern_.empty()) {
      results_.push_back(path);
      return true;
    }
    // A List or Dict may contain itself; do not search a node inside itself.
    if (!on_stack_.insert(obj).second) return false;
    bool produced = SearchChildren(value, obj, path, matched);
    on_stack_.erase(obj);
    if (!produced && advanced && allow_prefix_match_) {
      results_.push_back(path);
      produced = true;
    }
    return produced;
  }

  bool SearchChildren(const Any& value, const Object* obj, const AccessPath& path, size_t matched) {
    bool produced = false;
    int32_t type_index = value.type_index();
    if (type_index == kTVMFFIArray || type_index == kTVMFFIList) {
      const auto* seq = static_cast<const detail::SeqBaseObj*>(obj);
      for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
        Any item = AnyView::CopyFromTVMFFIAny(seq->slots()[i]);
        if (item.type_index() == kTVMFFINone) continue;
        produced |= Search(item, path->ArrayItem(i), matched);
      }
      return produced;
    }
    if (type_index == kTVMFFIMap || type_index == kTVMFFIDict) {
      const auto* map = static_cast<const MapBaseObj*>(obj);
      std::vector<std::pair<Any, Any>> entries(map->begin(), map->end());
      for (const auto& kv : entries) {
        produced |= Search(kv.second, path->MapItem(kv.first), matched);
      }
      return produced;
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    if (info == nullptr || info->metadata == nullptr) return false;
    reflection::ForEachFieldInfo(info, [&](const TVMFFIFieldInfo* field) {
      Expected<Any> field_value = detail::ReadReflectedField(field, obj);
      if (field_value.is_err()) return;
      produced |=
          Search(field_value.value(),
                 path->Attr(String(std::string(field->name.data, field->name.size))), matched);
    });
    return produced;
  }

  std::vector<const Object*> pattern_;
  bool allow_prefix_match_;
  std::vector<AccessPath> results_;
  std::unordered_set<const Object*> on_stack_;
};

Array<AccessPath> FindAccessPathsImpl(const ObjectRef& root, const VisitErrorContext& ctx,
                                      bool allow_prefix_match) {
  std::vector<const Object*> pattern;
  if (ctx.defined()) {
    const List<ObjectRef>& trail = ctx->reverse_visit_pattern;
    // The trail is innermost first; the search wants outermost first.
    for (int64_t i = static_cast<int64_t>(trail.size()) - 1; i >= 0; --i) {
      ObjectRef node = trail[i];
      if (!node.defined()) continue;
      if (!pattern.empty() && pattern.back() == node.get()) continue;
      pattern.push_back(node.get());
    }
  }
  if (pattern.empty()) return Array<AccessPath>();
  return AccessPathFinder(std::move(pattern), allow_prefix_match).Run(root);
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<VisitErrorContextObj>()
      .def_ro("reverse_visit_pattern", &VisitErrorContextObj::reverse_visit_pattern,
              "The visited nodes the error passed through, innermost first.")
      .def_ro("prev_error_context", &VisitErrorContextObj::prev_error_context,
              "The error's previous extra context.");
  refl::GlobalDef().def(
      "ffi.VisitErrorContext.FindAccessPaths",
      [](ObjectRef root, VisitErrorContext ctx, bool allow_prefix_match) {
        return FindAccessPathsImpl(root, ctx, allow_prefix_match);
      },
      "The access paths from root to where the error of ctx happened.");
}

TVM_FFI_NAMESPACE_END
