/*
 * Structural mutation in the runtime: the StructuralMutator type, the
 * `__s_mutate__` / `__s_maybe_inplace_mutate__` hooks of the built-in types
 * (strings, bytes and BigInt are leaves; Array/List mutate their elements,
 * Map/Dict their values, never their keys), and the global functions behind
 * Python's structural_map / structural_mutate / StructuralMutator.
 *
 * The in-place hooks run only on a container its caller holds alone
 * (StructuralMutatorObj::MutateExpected checks), so they may take each element
 * out, mutate it with InplaceMode::kAllow, and put the result back.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_mutate.h>
#include <tvm/ffi/reflection/registry.h>

#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

using MutateResult = Expected<UnchangedOr<Any>>;
using Link = Tuple<int32_t, Function>;
using MutateLink = Tuple<int32_t, Function, bool>;

TVMFFIAny ToRaw(MutateResult result) {
  return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
}

TVMFFIAny LeafHook(StructuralMutatorObj*, AnyView) noexcept { return ToRaw(UnchangedOr<Any>()); }

/*! \brief Array and List: a new container when an element changed. */
TVMFFIAny MutateSeqHook(StructuralMutatorObj* mutator, AnyView value) noexcept {
  try {
    int32_t type_index = value.type_index();
    const auto* seq =
        reinterpret_cast<const detail::SeqBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    // A List may be changed by a callback while it is walked (it is mutable even when shared):
    // walk a snapshot of it. An Array cannot be, so its elements are offered as views: the
    // element's count stays that of its holders (this container is shared, so a uniquely held
    // element is still not the mutator's to change).
    std::vector<Any> snapshot;
    if (type_index == kTVMFFIList) {
      snapshot.reserve(static_cast<size_t>(seq->SeqCell()->size));
      for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
        snapshot.emplace_back(AnyView::CopyFromTVMFFIAny(seq->slots()[i]));
      }
    }
    int64_t size =
        type_index == kTVMFFIList ? static_cast<int64_t>(snapshot.size()) : seq->SeqCell()->size;
    auto element = [&](int64_t i) -> AnyView {
      return type_index == kTVMFFIList ? AnyView(snapshot[static_cast<size_t>(i)])
                                       : AnyView::CopyFromTVMFFIAny(seq->slots()[i]);
    };
    // Made at the first change (most mutations leave most containers as they are).
    std::vector<Any> items;
    bool changed = false;
    for (int64_t i = 0; i < size; ++i) {
      AnyView elem = element(i);
      MutateResult r = mutator->MutateExpected(elem);
      if (r.is_err()) return ToRaw(std::move(r));
      UnchangedOr<Any> u = std::move(r).value();
      bool same = u.IsUnchanged() || u.UnchangedOrSameAs(Any(elem));
      if (!changed) {
        if (same) continue;
        changed = true;
        items.reserve(static_cast<size_t>(size));
        for (int64_t j = 0; j < i; ++j) items.emplace_back(element(j));
      }
      if (same) {
        items.emplace_back(elem);
      } else {
        items.push_back(std::move(u).ValueUnchecked());
      }
    }
    if (!changed) return ToRaw(UnchangedOr<Any>());
    if (type_index == kTVMFFIList) return ToRaw(UnchangedOr<Any>(Any(List<Any>(items))));
    return ToRaw(UnchangedOr<Any>(Any(Array<Any>(items))));
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

/*! \brief Array and List held only by the caller: each element replaced in place. */
TVMFFIAny MutateSeqInplaceHook(StructuralMutatorObj* mutator, AnyView value) noexcept {
  try {
    auto* seq =
        reinterpret_cast<detail::SeqBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
      // Taken out of the slot so that a uniquely held element can itself be reused.
      TVMFFIAny* slot = seq->slots() + i;
      Any elem = detail::AnyUnsafe::MoveTVMFFIAnyToAny(slot);
      MutateResult r = mutator->MutateExpected(elem, InplaceMode::kAllow);
      if (r.is_err()) {
        *slot = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(elem));
        return ToRaw(std::move(r));
      }
      Any result = std::move(r).value().ValueOrUnchanged(std::move(elem));
      *slot = detail::AnyUnsafe::MoveAnyToTVMFFIAny(std::move(result));
    }
    return ToRaw(UnchangedOr<Any>());
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

/*!
 * \brief The entries of range ((key, value) pairs) with each value mutated: a new Map or Dict
 *  (same keys, same order) when a value changed. The values are offered as views, as for
 *  sequences; the new entries are made at the first change.
 */
template <typename Range>
TVMFFIAny MutateEntries(StructuralMutatorObj* mutator, const Range& range, size_t size,
                        int32_t type_index) {
  std::vector<std::pair<Any, Any>> entries;
  bool changed = false;
  size_t seen = 0;
  for (const auto& kv : range) {
    MutateResult r = mutator->MutateExpected(AnyView(kv.second));
    if (r.is_err()) return ToRaw(std::move(r));
    UnchangedOr<Any> u = std::move(r).value();
    bool same = u.IsUnchanged() || u.UnchangedOrSameAs(Any(kv.second));
    if (!changed && !same) {
      changed = true;
      entries.reserve(size);
      for (const auto& before : range) {
        if (entries.size() == seen) break;
        entries.emplace_back(before.first, before.second);
      }
    }
    if (changed) {
      entries.emplace_back(kv.first, same ? Any(kv.second) : std::move(u).ValueUnchecked());
    }
    ++seen;
  }
  if (!changed) return ToRaw(UnchangedOr<Any>());
  if (type_index == kTVMFFIDict) {
    Dict<Any, Any> out;
    for (auto& kv : entries) out.Set(kv.first, kv.second);
    return ToRaw(UnchangedOr<Any>(Any(out)));
  }
  Map<Any, Any> out;
  for (auto& kv : entries) out.Set(kv.first, kv.second);
  return ToRaw(UnchangedOr<Any>(Any(out)));
}

/*! \brief Map and Dict: a new container (same keys, same order) when a value changed. */
TVMFFIAny MutateMapHook(StructuralMutatorObj* mutator, AnyView value) noexcept {
  try {
    int32_t type_index = value.type_index();
    const auto* map =
        reinterpret_cast<const MapBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    if (type_index == kTVMFFIDict) {
      // A Dict may be changed by a callback while it is walked: walk a snapshot of it.
      std::vector<std::pair<Any, Any>> snapshot;
      snapshot.reserve(map->size());
      for (const auto& kv : *map) snapshot.emplace_back(kv.first, kv.second);
      return MutateEntries(mutator, snapshot, snapshot.size(), type_index);
    }
    return MutateEntries(mutator, *map, map->size(), type_index);
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

/*! \brief Map and Dict held only by the caller: each value replaced in place. */
TVMFFIAny MutateMapInplaceHook(StructuralMutatorObj* mutator, AnyView value) noexcept {
  try {
    const auto* map =
        reinterpret_cast<const MapBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    for (auto& kv : *map) {
      Any v = std::move(kv.second);
      MutateResult r = mutator->MutateExpected(v, InplaceMode::kAllow);
      if (r.is_err()) {
        kv.second = std::move(v);
        return ToRaw(std::move(r));
      }
      kv.second = std::move(r).value().ValueOrUnchanged(std::move(v));
    }
    return ToRaw(UnchangedOr<Any>());
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

void RegisterHook(int32_t type_index, const char* name, FStructuralMutateABI fn) {
  TVMFFIByteArray attr{name, std::char_traits<char>::length(name)};
  Any value(reinterpret_cast<void*>(fn));
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterAttr(type_index, &attr, detail::AnyUnsafe::GetTVMFFIAny(value)));
}

void RegisterHooks(int32_t type_index, FStructuralMutateABI mutate,
                   FStructuralMutateABI maybe_inplace) {
  RegisterHook(type_index, detail::kSMutateAttrName, mutate);
  RegisterHook(type_index, detail::kSMaybeInplaceMutateAttrName, maybe_inplace);
}

/*!
 * \brief The engine of ffi.StructuralMutate: a matching (type index, Function,
 *  accepts_mode) link is called with (value, mutator[, mode]) and owns the
 *  recursion; other values get the default mutation.
 */
class StructuralMutateDynEngine : public StructuralMapEngineBase {
 public:
  explicit StructuralMutateDynEngine(Array<MutateLink> links)
      : StructuralMapEngineBase(VTable()), links_(std::move(links)) {}

 private:
  static const StructuralMutatorVTable* VTable() {
    static const StructuralMutatorVTable vtable{
        &MutateABI<InplaceMode::kDisallow>, &MutateABI<InplaceMode::kAllow>,
        &StructuralMapEngineBase::VarRemapGetABI, &StructuralMapEngineBase::VarRemapSetABI};
    return &vtable;
  }

  template <InplaceMode mode>
  static TVMFFIAny MutateABI(StructuralMutatorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralMutateDynEngine*>(self);
    if (value.type_index() == kTVMFFINone) return ToRaw(UnchangedOr<Any>());
    try {
      MutateResult result = engine->Dispatch(value, mode);
      if (result.is_err()) VisitErrorContext::AppendValueToError(result.error(), value);
      return ToRaw(std::move(result));
    } catch (...) {
      Error err = detail::ErrorFromCurrentException();
      try {
        VisitErrorContext::AppendValueToError(err, value);
      } catch (...) {
      }
      return ToRaw(std::move(err));
    }
  }

  MutateResult Dispatch(AnyView value, InplaceMode mode) {
    int32_t type_index = value.type_index();
    for (const MutateLink& link : links_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.get<0>())) {
        if (link.get<2>()) {
          return link.get<1>().CallExpected<UnchangedOr<Any>>(value, SelfRef(),
                                                              static_cast<int32_t>(mode));
        }
        return link.get<1>().CallExpected<UnchangedOr<Any>>(value, SelfRef());
      }
    }
    return DefaultMutateExpected(value, mode);
  }

  Array<MutateLink> links_;
};

/*!
 * \brief The root argument as an owned value: an ObjectRValueRef (Python's
 *  `obj._move()`) is taken over, so that a root nobody else holds can be
 *  reused in place.
 */
Any TakeRoot(AnyView root) {
  const TVMFFIAny* cell = detail::AnyUnsafe::GetTVMFFIAny(root);
  if (cell->type_index != kTVMFFIObjectRValueRef) return Any(root);
  TVMFFIObject** slot = static_cast<TVMFFIObject**>(cell->v_ptr);
  TVMFFIObject* obj = *slot;
  *slot = nullptr;
  TVMFFIAny owned;
  owned.zero_padding = 0;
  if (obj == nullptr) {
    owned.type_index = kTVMFFINone;
    owned.v_int64 = 0;
  } else {
    owned.type_index = obj->type_index;
    owned.v_obj = obj;
  }
  return detail::AnyUnsafe::MoveTVMFFIAnyToAny(&owned);
}

/*! \brief The root (Unchanged resolved to root) of mutating root with engine. */
Any MutateRoot(StructuralMutatorObj* engine, Any root) {
  MutateResult r = engine->MutateExpected(root, InplaceMode::kAllow);
  return std::move(r).value().ValueOrUnchanged(std::move(root));
}

Any StructuralMapGlobal(AnyView root_arg, Array<Link> links, Array<Link> links_with_kind,
                        int64_t order) {
  if (order != static_cast<int64_t>(WalkOrder::kPreOrder) &&
      order != static_cast<int64_t>(WalkOrder::kPostOrder)) {
    TVM_FFI_THROW(ValueError) << "Unknown structural walk order: " << order;
  }
  Any root = TakeRoot(root_arg);
  if (order == static_cast<int64_t>(WalkOrder::kPreOrder)) {
    auto engine =
        make_object<StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPreOrder>>(
            std::move(links), std::move(links_with_kind));
    return MutateRoot(engine.get(), std::move(root));
  }
  auto engine = make_object<StructuralMapDynEngine<StructuralMapEngineBase, WalkOrder::kPostOrder>>(
      std::move(links), std::move(links_with_kind));
  return MutateRoot(engine.get(), std::move(root));
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<StructuralMutatorObj>();

  RegisterHooks(kTVMFFIStr, &LeafHook, &LeafHook);
  RegisterHooks(kTVMFFIBytes, &LeafHook, &LeafHook);
  RegisterHooks(kTVMFFIBigInt, &LeafHook, &LeafHook);
  RegisterHooks(kTVMFFIArray, &MutateSeqHook, &MutateSeqInplaceHook);
  RegisterHooks(kTVMFFIList, &MutateSeqHook, &MutateSeqInplaceHook);
  RegisterHooks(kTVMFFIMap, &MutateMapHook, &MutateMapInplaceHook);
  RegisterHooks(kTVMFFIDict, &MutateMapHook, &MutateMapInplaceHook);

  refl::GlobalDef()
      .def("ffi.StructuralMap", &StructuralMapGlobal,
           "Rebuild root as post(D(pre(x))) with (type index, callback) links; order 0 pre, 1 "
           "post.")
      .def(
          "ffi.StructuralMutate",
          [](AnyView root, Array<MutateLink> links) {
            auto engine = make_object<StructuralMutateDynEngine>(std::move(links));
            return MutateRoot(engine.get(), TakeRoot(root));
          },
          "Mutate root with (type index, callback, accepts_mode) links that own the recursion.")
      .def(
          "ffi.StructuralMutatorMutate",
          [](StructuralMutator mutator, Any value) {
            return mutator->Mutate(value).ValueOrUnchanged(value);
          },
          "Mutate value (Unchanged resolved to value).")
      .def(
          "ffi.StructuralMutatorDefaultMutate",
          [](StructuralMutator mutator, Any value) {
            return mutator->DefaultMutate(value).ValueOrUnchanged(value);
          },
          "The default mutation of value (Unchanged resolved to value).")
      .def(
          "ffi.StructuralMutatorVarRemapGet",
          [](StructuralMutator mutator, Any var) { return mutator->VarRemapGet(var); },
          "The value var is remapped to, None when it is not.")
      .def(
          "ffi.StructuralMutatorVarRemapSet",
          [](StructuralMutator mutator, Any var, Any value) { mutator->VarRemapSet(var, value); },
          "Remap var to value for the rest of the mutation.")
      .def(
          "ffi.StructuralMutatorDefRegionKind",
          [](StructuralMutator mutator) { return static_cast<int>(mutator->def_region_kind()); },
          "The mutator's current definition region kind.")
      .def(
          "ffi.StructuralMutatorWithDefRegionKind",
          [](StructuralMutator mutator, int64_t kind, Function callback) {
            return mutator->WithDefRegionKind(detail::CheckDefRegionKind(kind),
                                              [&]() { return callback(); });
          },
          "Call callback() with the mutator in definition region kind.");
}

TVM_FFI_NAMESPACE_END
