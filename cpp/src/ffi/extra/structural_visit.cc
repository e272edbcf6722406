/*
 * Structural visiting in the runtime: the VisitInterrupt and
 * StructuralVisitor types, the `__s_visit__` hooks of the containers
 * (Array/List visit their elements in order, Map/Dict their values only, in
 * iteration order), and the global functions behind Python's
 * structural_walk / structural_visit / StructuralVisitor.
 */
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/extra/structural_visit.h>
#include <tvm/ffi/reflection/registry.h>

#include <utility>
#include <vector>

TVM_FFI_NAMESPACE_BEGIN
namespace {

using VisitResult = Expected<Optional<VisitInterrupt>>;
using Link = Tuple<int32_t, Function>;

TVMFFIAny ToRaw(VisitResult result) {
  return detail::ExpectedUnsafe::MoveToTVMFFIAny(std::move(result));
}

/*! \brief Array and List: every element in order (the size is re-read, a List may change). */
TVMFFIAny VisitSeqHook(StructuralVisitorObj* visitor, AnyView value) noexcept {
  try {
    const auto* seq =
        reinterpret_cast<const detail::SeqBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    for (int64_t i = 0; i < seq->SeqCell()->size; ++i) {
      Any elem = AnyView::CopyFromTVMFFIAny(seq->slots()[i]);
      VisitResult r = visitor->VisitExpected(elem);
      if (r.type_index() != kTVMFFINone) return ToRaw(std::move(r));
    }
    return ToRaw(Optional<VisitInterrupt>());
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

/*! \brief Map and Dict: the values only, in iteration order (keys are never visited). */
TVMFFIAny VisitMapHook(StructuralVisitorObj* visitor, AnyView value) noexcept {
  try {
    const auto* map =
        reinterpret_cast<const MapBaseObj*>(detail::AnyUnsafe::GetTVMFFIAny(value)->v_obj);
    // A snapshot: a callback may change a Dict while its values are visited.
    std::vector<Any> values;
    values.reserve(map->size());
    for (const auto& kv : *map) values.push_back(kv.second);
    for (const Any& v : values) {
      VisitResult r = visitor->VisitExpected(v);
      if (r.type_index() != kTVMFFINone) return ToRaw(std::move(r));
    }
    return ToRaw(Optional<VisitInterrupt>());
  } catch (...) {
    return ToRaw(detail::ErrorFromCurrentException());
  }
}

void RegisterHook(int32_t type_index, const char* name, FStructuralVisitABI fn) {
  TVMFFIByteArray attr{name, std::char_traits<char>::length(name)};
  Any value(reinterpret_cast<void*>(fn));
  TVM_FFI_CHECK_SAFE_CALL(
      TVMFFITypeRegisterAttr(type_index, &attr, detail::AnyUnsafe::GetTVMFFIAny(value)));
}

/*! \brief The walk engine of ffi.StructuralWalk: callbacks are (type index, Function) links. */
template <WalkOrder order>
class StructuralWalkDynEngine : public StructuralWalkEngineBase<StructuralWalkDynEngine<order>,
                                                                StructuralVisitorNoState, order> {
 public:
  StructuralWalkDynEngine(Array<Link> links, Array<Link> links_with_kind)
      : links_(std::move(links)), links_with_kind_(std::move(links_with_kind)) {}

  /*! \brief Plain links first (called with the value), then those taking the region. */
  Expected<WalkResult> MatchAndCall(const AnyView& value) {
    int32_t type_index = value.type_index();
    for (const Link& link : links_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.get<0>())) {
        return link.get<1>().CallExpected<WalkResult>(value);
      }
    }
    for (const Link& link : links_with_kind_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.get<0>())) {
        return link.get<1>().CallExpected<WalkResult>(
            value, static_cast<int32_t>(this->def_region_kind()));
      }
    }
    return WalkResult::Advance();
  }

 private:
  Array<Link> links_;
  Array<Link> links_with_kind_;
};

/*!
 * \brief The visit engine of ffi.StructuralVisit: a matching link is called
 *  with (value, visitor) and owns the descent; other values get the default one.
 */
class StructuralVisitDynEngine : public StructuralVisitorObj {
 public:
  explicit StructuralVisitDynEngine(Array<Link> links)
      : StructuralVisitorObj(VTable()), links_(std::move(links)) {}

 private:
  static const StructuralVisitorVTable* VTable() {
    static const StructuralVisitorVTable vtable{&VisitABI};
    return &vtable;
  }

  static TVMFFIAny VisitABI(StructuralVisitorObj* self, AnyView value) noexcept {
    auto* engine = static_cast<StructuralVisitDynEngine*>(self);
    if (value.type_index() == kTVMFFINone) return ToRaw(Optional<VisitInterrupt>());
    try {
      VisitResult result = engine->Dispatch(value);
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

  VisitResult Dispatch(AnyView value) {
    int32_t type_index = value.type_index();
    for (const Link& link : links_) {
      if (detail::RuntimeTypeIndexMatch(type_index, link.get<0>())) {
        return link.get<1>().CallExpected<Optional<VisitInterrupt>>(value, SelfRef());
      }
    }
    return DefaultVisitExpected(value);
  }

  Array<Link> links_;
};

Optional<VisitInterrupt> StructuralWalkGlobal(Any root, Array<Link> links,
                                              Array<Link> links_with_kind, int64_t order) {
  if (order == static_cast<int64_t>(WalkOrder::kPreOrder)) {
    auto engine = make_object<StructuralWalkDynEngine<WalkOrder::kPreOrder>>(
        std::move(links), std::move(links_with_kind));
    return engine->Visit(root);
  }
  if (order == static_cast<int64_t>(WalkOrder::kPostOrder)) {
    auto engine = make_object<StructuralWalkDynEngine<WalkOrder::kPostOrder>>(
        std::move(links), std::move(links_with_kind));
    return engine->Visit(root);
  }
  TVM_FFI_THROW(ValueError) << "Unknown structural walk order: " << order;
  TVM_FFI_UNREACHABLE();
}

}  // namespace

TVM_FFI_STATIC_INIT_BLOCK() {
  namespace refl = ::tvm::ffi::reflection;
  refl::ObjectDef<VisitInterruptObj>().def_ro("value", &VisitInterruptObj::value,
                                              "The payload reported by the interrupting visit.",
                                              refl::DefaultValue(Any()));
  refl::ObjectDef<StructuralVisitorObj>();

  RegisterHook(kTVMFFIArray, detail::kSVisitAttrName, &VisitSeqHook);
  RegisterHook(kTVMFFIList, detail::kSVisitAttrName, &VisitSeqHook);
  RegisterHook(kTVMFFIMap, detail::kSVisitAttrName, &VisitMapHook);
  RegisterHook(kTVMFFIDict, detail::kSVisitAttrName, &VisitMapHook);

  refl::GlobalDef()
      .def(
          "ffi.VisitInterrupt", [](Any value) { return VisitInterrupt(std::move(value)); },
          "An interrupt carrying value.")
      .def("ffi.StructuralWalk", &StructuralWalkGlobal,
           "Walk root calling (type index, callback) links at every value; order 0 pre, 1 post.")
      .def(
          "ffi.StructuralVisit",
          [](Any root, Array<Link> links) {
            auto engine = make_object<StructuralVisitDynEngine>(std::move(links));
            return engine->Visit(root);
          },
          "Visit root with (type index, callback(value, visitor)) links that own the descent.")
      .def(
          "ffi.StructuralVisitorVisit",
          [](StructuralVisitor visitor, Any value) { return visitor->Visit(value); },
          "Visit value with the visitor.")
      .def(
          "ffi.StructuralVisitorDefaultVisit",
          [](StructuralVisitor visitor, Any value) { return visitor->DefaultVisit(value); },
          "The default descent into value.")
      .def(
          "ffi.StructuralVisitorDefRegionKind",
          [](StructuralVisitor visitor) { return static_cast<int>(visitor->def_region_kind()); },
          "The visitor's current definition region kind.")
      .def(
          "ffi.StructuralVisitorWithDefRegionKind",
          [](StructuralVisitor visitor, int64_t kind, Function callback) {
            return visitor->WithDefRegionKind(detail::CheckDefRegionKind(kind),
                                              [&]() { return callback(); });
          },
          "Call callback() with the visitor in definition region kind.");
}

TVM_FFI_NAMESPACE_END
