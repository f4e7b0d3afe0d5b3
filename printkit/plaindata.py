"""Plain data as JSON, rebuilt to exactly the type its annotations name: what the cache keeps (never a pickle).

:func:`dumps` writes a value of a type and :func:`loads` rebuilds one from
text; both work only from the type they are handed, so decoding runs no code
of the data's choosing. The types are ``str``, ``int``, ``float`` (finite),
``bool``, ``None``, ``bytes`` (base64 text), ``Literal``, unions and
``Optional``, ``tuple[X, ...]`` and fixed tuples, ``list[X]``, ``dict[str, X]``,
``typing.NamedTuple`` classes and frozen dataclasses (their fields from
``typing.get_type_hints``, nested), and ``Any`` or a bare ``dict`` / ``tuple``
for plain JSON values (str, int, finite float, bool, None, lists, objects).
A named tuple or a dataclass is a JSON array of its fields in order; a member
of a union that is not a scalar is ``[index, value]``. Anything that does not
match exactly (another type, a field missing or extra, NaN, a duplicate key)
raises :class:`Refused`; a type that is not plain data raises ``TypeError``.
"""

from __future__ import annotations

import contextlib
import json
import types
import typing
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
Codec = tuple[Callable[[Any], Any], Callable[[Any], Any]]
"""(encode: a value -> JSON-ready data, decode: parsed JSON -> the value); both raise :class:`Refused`."""
SCALARS = (str, int, float, bool)


class Refused(ValueError):
    """A value or a document that does not match its type exactly."""


def _refuse(what: object = "a value that does not match its type") -> typing.NoReturn:
    raise Refused(str(what))


def _same(kind: type) -> Codec:
    """``str``, ``int`` or ``bool``: the value itself, of exactly that type (a bool is no int)."""

    def code(value: Any) -> Any:
        if type(value) is not kind:
            _refuse(f"expected {kind.__name__}, got {type(value).__name__}")
        return value

    return code, code


_key = _same(str)[0]


def _float(value: Any) -> Any:
    """A finite float, or an int where a float is annotated (kept an int: the value is rebuilt as it was)."""
    if type(value) is float:
        if value - value != 0:  # inf or NaN
            _refuse("a float that is not finite")
        return value
    if type(value) is not int:
        _refuse(f"expected float, got {type(value).__name__}")
    return value


def _none(value: Any) -> Any:
    if value is not None:
        _refuse("expected None")
    return None


def _bytes() -> Codec:
    import binascii

    def encode(value: Any) -> Any:
        if type(value) is not bytes:
            _refuse("expected bytes")
        return binascii.b2a_base64(value, newline=False).decode("ascii")

    def decode(value: Any) -> Any:
        if type(value) is not str:
            _refuse("expected base64 text")
        try:
            return binascii.a2b_base64(value, strict_mode=True)
        except (binascii.Error, ValueError):
            _refuse("expected base64 text")

    return encode, decode


def _json_value(value: Any) -> Any:
    """A plain JSON value, checked all the way down (both ways: what JSON gives back is what was kept)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is float:
        return _float(value)
    if kind is list:
        return [_json_value(v) for v in value]
    if kind is dict:
        return {_key(k): _json_value(v) for k, v in value.items()}
    _refuse(f"{kind.__name__} is not a plain JSON value")


def _literal(options: tuple[Any, ...]) -> Codec:
    allowed = {(type(o), o) for o in options}
    if not all(type(o) in (*SCALARS, type(None)) for o in options):
        raise TypeError(f"Literal{list(options)}: only str, int, bool and None literals are plain data")

    def code(value: Any) -> Any:
        if (type(value), value) not in allowed:
            _refuse(f"{value!r} is none of {list(options)}")
        return value

    return code, code


def _sequence(item: Any, kind: type) -> Codec:
    """``tuple[X, ...]`` or ``list[X]``: a JSON array (of plain scalars: checked by their types at once)."""
    enc, dec = codec(item)
    plain = plain_types(item)
    inner = _plain_rows(item)

    def encode(value: Any) -> Any:
        if type(value) is not kind:
            _refuse(f"expected {kind.__name__}")
        items = list(typing.cast("Iterable[Any]", value))
        if plain is not None:
            if not plain.issuperset(map(type, items)):
                _refuse("an item of another type")
            return items
        return [enc(v) for v in items]

    def decode(value: Any) -> Any:
        if type(value) is not list:
            _refuse("expected an array")
        if plain is not None:
            if not plain.issuperset(map(type, value)):
                _refuse("an item of another type")
            return value if kind is list else tuple(value)
        if inner is not None:  # rows of plain scalars (a path's commands): checked together, without a call per row
            seen: set[type] = set()
            for row in value:
                if type(row) is not list:
                    _refuse("expected an array")
                seen.update(map(type, row))
            if not inner[0].issuperset(seen):
                _refuse("an item of another type")
            return kind(map(inner[1], value))
        return kind(map(dec, value))

    return encode, decode


def _plain_rows(kind: Any) -> tuple[frozenset[type], type] | None:
    """(its items' types, tuple or list) for ``tuple[X, ...]`` or ``list[X]`` of plain scalars ``X``, else None."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis or origin is list and len(args) == 1:
        plain = plain_types(args[0])
        return None if plain is None else (plain, origin)
    return None


def _fixed(items: tuple[Any, ...], make: Callable[[list[Any]], Any], kind: type, exact: bool) -> Codec:
    """A fixed tuple, a named tuple or a dataclass: a JSON array of exactly its fields."""
    n = len(items)
    encoders = [codec(item)[0] for item in items]
    plain = [(i, ok) for i, ok in enumerate(map(plain_types, items)) if ok is not None]
    nested = [(i, codec(item)[1]) for i, item in enumerate(items) if plain_types(item) is None]

    def encode(value: Any) -> Any:
        if (type(value) is not kind) if exact else not isinstance(value, kind):
            _refuse(f"expected {kind.__name__}, got {type(value).__name__}")
        fields = tuple(value) if kind is tuple else _fields_of(value)
        if len(fields) != n:
            _refuse(f"expected {n} fields, got {len(fields)}")
        return [enc(v) for enc, v in zip(encoders, fields)]

    def decode(value: Any) -> Any:
        if type(value) is not list or len(value) != n:
            _refuse(f"expected an array of {n}")
        for i, ok in plain:
            if type(value[i]) not in ok:
                _refuse(f"field {i}: {type(value[i]).__name__} is not one of its types")
        for i, dec in nested:
            value[i] = dec(value[i])
        return make(value)

    return encode, decode


def _fields_of(value: Any) -> tuple[Any, ...]:
    if isinstance(value, tuple):
        return value
    names = value.__dataclass_fields__
    return tuple(getattr(value, name) for name in names)


def _mapping(item: Codec) -> Codec:
    enc, dec = item

    def encode(value: Any) -> Any:
        if type(value) is not dict:
            _refuse("expected a dict")
        return {_key(k): enc(v) for k, v in value.items()}

    def decode(value: Any) -> Any:
        if type(value) is not dict:
            _refuse("expected an object")
        return {k: dec(v) for k, v in value.items()}

    return encode, decode


def _union(members: tuple[Any, ...]) -> Codec:
    """A scalar member is itself (the first member that takes it decodes it); any other is ``[index, value]``."""
    scalar = [m for m in members if m is type(None) or m in SCALARS or typing.get_origin(m) is typing.Literal]
    tagged = [(m, codec(m)) for m in members if m not in scalar]
    scalar_codecs = [codec(m) for m in scalar]
    exact = {m: (i, c[0]) for i, (m, c) in enumerate(tagged) if isinstance(m, type) and m not in (tuple, list, dict)}
    kinds = [plain_types(m) for m in scalar]
    plain: frozenset[type] | None = None if None in kinds else frozenset().union(*kinds)  # type: ignore[arg-type]

    def encode(value: Any) -> Any:
        if type(value) in exact:
            i, enc = exact[type(value)]
            return [i, enc(value)]
        if (value is None or type(value) in SCALARS) and scalar:
            with contextlib.suppress(Refused):
                return _first(scalar_codecs, value, 0)
        for i, (_, (enc, _dec)) in enumerate(tagged):
            with contextlib.suppress(Refused):
                return [i, enc(value)]
        _refuse(f"{type(value).__name__} is no member of the union")

    def decode(value: Any) -> Any:
        if type(value) is list:
            if len(value) != 2 or type(value[0]) is not int or not 0 <= value[0] < len(tagged):
                _refuse("expected [member, value]")
            return tagged[value[0]][1][1](value[1])
        if plain is None:
            return _first(scalar_codecs, value, 1)
        if type(value) not in plain:
            _refuse(f"{type(value).__name__} is no member of the union")
        return value

    return encode, decode


def _first(codecs: list[Codec], value: Any, way: int) -> Any:
    for pair in codecs:
        try:
            return pair[way](value)
        except Refused:
            continue
    _refuse(f"{value!r} is no member of the union")


def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _record(kind: type) -> Codec:
    """A named tuple or a frozen dataclass, by its fields' annotations."""
    hints = _hints(kind)
    if issubclass(kind, tuple):
        names: tuple[str, ...] = kind._fields  # type: ignore[attr-defined]
        make: Callable[[list[Any]], Any] = kind._make  # type: ignore[attr-defined]
    else:
        params = getattr(kind, "__dataclass_params__", None)
        fields = kind.__dataclass_fields__  # type: ignore[attr-defined]
        if params is None or not params.frozen or not all(f.init for f in fields.values()):
            raise TypeError(f"{kind.__qualname__}: only frozen dataclasses whose fields are all set by __init__")
        names = tuple(fields)

        def make(values: list[Any]) -> Any:
            return kind(*values)

    placeholder: list[Codec] = []  # a type that contains itself decodes through this
    _CODECS[kind] = (lambda v: placeholder[0][0](v), lambda v: placeholder[0][1](v))
    try:
        made = _fixed(tuple(hints[name] for name in names), make, kind, exact=True)
    except BaseException:
        del _CODECS[kind]
        raise
    placeholder.append(made)
    _CODECS[kind] = made
    return made


_CODECS: dict[Any, Codec] = {}
_PLAIN: dict[Any, frozenset[type] | None] = {str: frozenset({str}), int: frozenset({int}), bool: frozenset({bool}),
                                             float: frozenset({float, int}), type(None): frozenset({type(None)}),
                                             None: frozenset({type(None)})}


def plain_types(kind: Any) -> frozenset[type] | None:
    """The JSON types a scalar kind (or a union of scalars) is decoded as itself from, or None for any other kind."""
    if kind in _PLAIN:
        return _PLAIN[kind]
    found: frozenset[type] | None = None
    if typing.get_origin(kind) in (typing.Union, types.UnionType):
        parts = [plain_types(m) for m in typing.get_args(kind)]
        found = None if None in parts else frozenset().union(*parts)  # type: ignore[arg-type]
    _PLAIN[kind] = found
    return found


def codec(kind: Any) -> Codec:
    """The (encode, decode) pair for ``kind``, made once per type; ``TypeError`` for a type that is not plain data."""
    found = _CODECS.get(kind)
    if found is None:
        found = _make_codec(kind)
        _CODECS[kind] = found
    return found


def _make_codec(kind: Any) -> Codec:
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind in (str, int, bool):
        return _same(kind)
    if kind is float:
        return _float, _float
    if kind is None or kind is type(None):
        return _none, _none
    if kind is bytes:
        return _bytes()
    if kind is Any or kind is dict or kind is list:
        return _json_value, _json_value
    if kind is tuple:
        return _sequence(Any, tuple)
    if origin is typing.Literal:
        return _literal(args)
    if origin is typing.Union or origin is types.UnionType:
        return _union(args)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _sequence(args[0], tuple)
        return _fixed(() if args == ((),) else args, tuple, tuple, exact=True)
    if origin is list and len(args) == 1:
        return _sequence(args[0], list)
    if origin is dict and len(args) == 2 and args[0] is str:
        return _mapping(codec(args[1]))
    if isinstance(kind, type) and (issubclass(kind, tuple) and hasattr(kind, "_fields")
                                   or hasattr(kind, "__dataclass_fields__")):
        return _record(kind)
    raise TypeError(f"{kind!r} is not plain data (see printkit.plaindata)")


def _no_constant(name: str) -> Any:
    _refuse(f"{name} is not a finite number")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        _refuse("a key given twice")
    return made


def dumps(value: Any, kind: Any) -> bytes:
    """``value`` of type ``kind`` as compact UTF-8 JSON; :class:`Refused` if it is not exactly of that type."""
    data = codec(kind)[0](value)
    try:
        return json.dumps(data, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except (ValueError, UnicodeEncodeError) as exc:
        raise Refused(str(exc)) from None


def _finite(text: str) -> float:
    """A JSON number as a float, refused where it overflows to infinity (``1e999``)."""
    number = float(text)
    if number - number != 0:
        _refuse(f"{text[:20]} is not a finite number")
    return number


def loads(data: bytes, kind: type[T]) -> T:
    """The ``kind`` that ``data`` (from :func:`dumps`) holds; :class:`Refused` for anything else."""
    decode = codec(kind)[1]
    try:
        text = data.decode("utf-8")
        parsed = json.loads(text, parse_float=_finite, parse_constant=_no_constant, object_pairs_hook=_no_duplicates)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise Refused(f"not JSON: {exc}") from None
    try:
        value: T = decode(parsed)
    except RecursionError:
        raise Refused("nested too deep") from None
    except (TypeError, ValueError) as exc:  # a decoder's own check, or a constructor refusing what it was given
        raise Refused(str(exc)) from None
    return value
