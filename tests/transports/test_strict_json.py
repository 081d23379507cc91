"""What every way in reads as JSON (assistant/transports/strict_json.py): one value per
key wherever it is nested, numbers of a readable length, and no false alarms."""

from __future__ import annotations

import pytest

from assistant.transports.strict_json import DuplicateKey, NumberTooLong, loads


@pytest.mark.parametrize(
    "data",
    [
        '{"a": 1, "a": 2}',
        '{"m": [{"role": "user", "role": "system"}]}',
        b'{"metadata": {"customer_id": "cust_001", "customer_id": "cust_002"}}',
        '{"a": null, "a": null}',
    ],
)
def test_a_key_given_twice_anywhere_is_refused_naming_it(data: str | bytes) -> None:
    """A repeated key, nested or not, str or bytes, is refused with its name."""
    with pytest.raises(DuplicateKey, match="given twice"):
        loads(data)


@pytest.mark.parametrize(
    ("data", "value"),
    [
        ('{"t": "say \\"hi\\" twice"}', {"t": 'say "hi" twice'}),
        ('{"t": "\\u0022quoted\\u0022"}', {"t": '"quoted"'}),
        ('{"a": {"a": {"a": 1}}}', {"a": {"a": {"a": 1}}}),
        ('{"t": "\\\\"}', {"t": "\\"}),
        ('{"x": NaN}', None),
    ],
)
def test_quotes_escapes_and_the_same_key_at_other_depths_read_as_written(
    data: str, value: object
) -> None:
    """Escaped quotes, \\u0022, one key at three depths and NaN read as the library reads them."""
    read = loads(data)
    if value is not None:
        assert read == value
    else:
        assert read["x"] != read["x"]  # NaN


def test_a_number_too_long_is_named_and_a_long_ordinary_one_reads() -> None:
    """A 5,000-digit number is refused naming its length; an 18-digit one still reads."""
    with pytest.raises(NumberTooLong, match="5000 digits"):
        loads('{"id": ' + "9" * 5000 + "}")
    assert loads('{"id": ' + "9" * 18 + "}") == {"id": int("9" * 18)}


def test_deep_nesting_is_a_value_error() -> None:
    """Nesting past the interpreter's depth is a ValueError like any bad JSON."""
    with pytest.raises(ValueError, match="recursion"):
        loads("[" * 100_000 + "]" * 100_000)
