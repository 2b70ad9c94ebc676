"""Results: the CLI's JSON as dataclasses with snake_case fields, built from the JSON itself.

Nothing here names a field of a command: the classes are made from the keys the CLI printed,
so a field added or renamed in the CLI appears under its new name with no change here, and
every field is reachable (``result.p_value``, ``result["pValue"]``, ``result.to_dict()``).
"""

from __future__ import annotations

import dataclasses
import keyword
import re
from typing import TYPE_CHECKING, Any, Iterator, Mapping

if TYPE_CHECKING:  # pragma: no cover
    import pandas

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CAPITAL = re.compile(r"(?<=[a-z0-9])([A-Z])|(?<=[A-Z])([A-Z])(?=[a-z])")


def snake_case(key: str) -> str:
    """A JSON key in snake_case: ``pValue`` -> ``p_value``, ``nForPowerExact`` -> ``n_for_power_exact``.

    Parameters
    ----------
    key : str
        A camelCase key.

    Returns
    -------
    str
        The snake_case name; a Python keyword gets a trailing underscore (``from`` -> ``from_``).

    Examples
    --------
    >>> snake_case("confidenceInterval")
    'confidence_interval'
    >>> snake_case("nResamples")
    'n_resamples'
    """
    name = _CAPITAL.sub(lambda m: "_" + (m.group(1) or m.group(2)), key).lower()
    return name + "_" if keyword.iskeyword(name) else name


class Result:
    """Base class of every result: a frozen dataclass over one JSON object the CLI printed.

    Fields are the object's keys in snake_case; nested objects whose keys are names become
    results too, lists of such objects lists of results; other values (numbers, strings,
    lists, objects keyed by data such as file names) are kept as they are.
    """

    _json: dict[str, Any]
    _table: str | None

    if TYPE_CHECKING:  # every field is made at run time from the JSON

        def __getattr__(self, name: str) -> Any: ...

    @property
    def exit_status(self) -> int:
        """The CLI's exit status: 0 done, 1 a check failed (a gate that did not pass), 3 inconclusive."""
        return int(getattr(self, "_exit_status", 0))

    def to_dict(self) -> dict[str, Any]:
        """The JSON object as the CLI printed it (camelCase keys)."""
        return self._json

    def __getitem__(self, key: str) -> Any:
        """A field by its JSON key (``"pValue"``) or its snake_case name (``"p_value"``)."""
        if key in self._json:
            key = snake_case(key)
        if key not in {f.name for f in dataclasses.fields(self)}:  # type: ignore[arg-type]
            raise KeyError(key)
        return getattr(self, key)

    def keys(self) -> Iterator[str]:
        """The snake_case field names, in the CLI's order."""
        return (f.name for f in dataclasses.fields(self))  # type: ignore[arg-type]

    def to_frame(self, field: str | None = None) -> "pandas.DataFrame":
        """The result as a pandas DataFrame.

        Parameters
        ----------
        field : str, optional
            A field holding a list of records (``"pairs"``, ``"strata"``, …): one row per
            record. Default: the command's main table (compare: pairs; gate: the overall
            comparison then each stratum; size: the curve; allocate: the allocation;
            headline: the models; sweep: the costs; agree: the clause types; monitor: the
            looks), else one row of this result (nested objects flattened).

        Returns
        -------
        pandas.DataFrame
            Columns in snake_case; nested objects flattened to ``outer.inner`` columns.

        Raises
        ------
        ImportError
            When pandas is not installed.
        KeyError
            When ``field`` is not a field of the result.
        """
        try:
            import pandas
        except ImportError as error:  # pragma: no cover
            raise ImportError("Result.to_frame needs pandas: pip install 'benchplan[pandas]'") from error
        records: list[Any]
        if field is not None:
            value = self[field]
            records = value if isinstance(value, list) else [value]
        else:
            records = self._default_records()
        rows = [r.to_dict() if isinstance(r, Result) else r for r in records]
        if rows and not all(isinstance(r, Mapping) for r in rows):
            frame = pandas.DataFrame({snake_case(field or "value"): rows})
        else:
            frame = pandas.json_normalize(rows) if rows else pandas.DataFrame()
        frame.columns = [".".join(snake_case(part) for part in str(c).split(".")) for c in frame.columns]
        return frame

    def _default_records(self) -> list[Any]:
        table = self._table
        if table is not None and table.startswith("+"):  # the overall record, then the records of a list
            first, _, rest = table[1:].partition("+")
            head = self._json.get(first)
            tail = self._json.get(rest) or []
            if isinstance(head, Mapping):
                return [dict(head, **{"_part": first})] + [dict(t, **{"_part": rest}) for t in tail if isinstance(t, Mapping)]
        elif table is not None and isinstance(self._json.get(table), list):
            return list(self._json[table])
        return [self._json]

    def __repr__(self) -> str:
        shown = ", ".join(f"{f.name}={_short(getattr(self, f.name))}" for f in dataclasses.fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({shown})"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_CLASSES: dict[tuple[str, tuple[str, ...]], type] = {}


def _class_for(name: str, keys: tuple[str, ...]) -> type:
    known = _CLASSES.get((name, keys))
    if known is not None:
        return known
    names = [snake_case(k) for k in keys]
    if len(set(names)) != len(names):  # two keys with one snake_case name: keep the JSON's own names
        names = [k if _IDENTIFIER.match(k) and not keyword.iskeyword(k) else f"field_{i}" for i, k in enumerate(keys)]
    made = dataclasses.make_dataclass(name, [(n, Any) for n in names], bases=(Result,), frozen=True, repr=False, eq=True)
    _CLASSES[(name, keys)] = made
    return made


def _is_record(value: Any) -> bool:
    return isinstance(value, dict) and len(value) > 0 and all(isinstance(k, str) and _IDENTIFIER.match(k) for k in value)


def _pascal(key: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\W]+", key) if part)


def to_result(data: dict[str, Any], name: str, table: str | None = None) -> Result:
    """Build the result dataclass of one JSON object (recursively for nested records).

    Parameters
    ----------
    data : dict
        The JSON object (camelCase keys).
    name : str
        The class name, e.g. ``"CompareResult"``; nested records get ``name`` + their key.
    table : str, optional
        The field :meth:`Result.to_frame` returns by default.

    Returns
    -------
    Result
        A frozen dataclass instance; ``to_dict()`` gives ``data`` back.
    """
    keys = tuple(data.keys())
    cls = _class_for(name, keys)
    values = [_convert(data[k], name + _pascal(k)) for k in keys]
    result = cls(*values)
    object.__setattr__(result, "_json", data)
    object.__setattr__(result, "_table", table)
    return result  # type: ignore[no-any-return]


def _convert(value: Any, name: str) -> Any:
    if _is_record(value):
        return to_result(value, name)
    if isinstance(value, list) and value and all(_is_record(v) for v in value):
        return [to_result(v, name) for v in value]
    return value
