//! Canonical JSON (object keys sorted by their bytes, no whitespace)
//! written straight from any `Serialize` value, without building a
//! `serde_json::Value` tree first: the bytes the report's content hash is
//! taken over. The output is, byte for byte, `serde_json::to_value(v)`
//! printed by `Value`'s `Display` (serde_json's map is a `BTreeMap` unless
//! `preserve_order` is on, which this crate never enables): scalars and
//! strings are written by serde_json's own serializer, each object's entries
//! are written in order and then reordered by key (a repeated key keeps its
//! last value, as a map insert does). The report of 1000 claims was 130 M
//! of the whole call's 514 M instructions through a `Value`; see the
//! README's Performance section.

use serde::ser;
use serde::Serialize;
use std::fmt;

/// Why a value could not be written (a map key that is not a string or a
/// number; a `Serialize` impl's own error).
#[derive(Debug)]
pub(crate) struct CanonError(String);

impl fmt::Display for CanonError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CanonError {}

impl ser::Error for CanonError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        CanonError(msg.to_string())
    }
}

type Result<T> = std::result::Result<T, CanonError>;

/// The canonical writer with its working buffers, kept between values so
/// that writing many (a report's claims) allocates nothing per object.
#[derive(Default)]
pub(crate) struct Writer {
    state: State,
}

impl Writer {
    /// Appends the canonical JSON of `value` to `out`.
    pub(crate) fn write<T: Serialize + ?Sized>(&mut self, value: &T, out: &mut Vec<u8>) -> Result<()> {
        self.state.entries.clear();
        self.state.keys.clear();
        value.serialize(Canon { out, st: &mut self.state })
    }
}

/// What the objects being written share (nested objects use them as
/// stacks: an object's entries and key texts lie above its parent's and are
/// gone when it ends).
#[derive(Default)]
struct State {
    /// The entries of the open objects, innermost last.
    entries: Vec<Entry>,
    /// The text of map keys given by `serialize_key` (not `'static`).
    keys: String,
    /// An object's bytes while they are put in key order.
    scratch: Vec<u8>,
}

/// One entry of an object: `"key":value` at `start..end` of the output.
#[derive(Clone, Copy)]
struct Entry {
    /// The key's first 8 bytes, big-endian, zero-padded: when two entries'
    /// prefixes differ, they are in the order of their keys' bytes.
    prefix: u64,
    key: Key,
    start: usize,
    end: usize,
}

impl Entry {
    /// Whether `self`'s key comes after `other`'s, by bytes.
    fn after(&self, other: &Entry, keys: &str) -> bool {
        self.prefix > other.prefix
            || (self.prefix == other.prefix && self.key.text(keys).as_bytes() > other.key.text(keys).as_bytes())
    }
}

/// The first 8 bytes of `key` as a big-endian number, zero-padded.
fn prefix_of(key: &str) -> u64 {
    let mut b = [0u8; 8];
    for (d, s) in b.iter_mut().zip(key.as_bytes()) {
        *d = *s;
    }
    u64::from_be_bytes(b)
}

/// An entry's key: a struct field's name, or a range of [`State::keys`].
#[derive(Clone, Copy)]
enum Key {
    Static(&'static str),
    Text(usize, usize),
}

impl Key {
    fn text(self, keys: &str) -> &str {
        match self {
            Key::Static(k) => k,
            Key::Text(s, e) => keys.get(s..e).unwrap_or_default(),
        }
    }
}

/// A scalar through serde_json's serializer (its number formatting and
/// string escaping, which `Value`'s `Display` uses too).
fn scalar<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) -> Result<()> {
    serde_json::to_writer(out, v).map_err(|e| CanonError(e.to_string()))
}

/// A JSON string as serde_json writes it (`"`, `\\` and the control
/// characters escaped, `\b \t \n \f \r` by their letter, the others as
/// `\u00xx` in lower case; everything else as it is), without its
/// generic writer: the runs between escapes are copied whole.
fn write_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        // eight bytes at a time while none needs escaping
        if let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
            if !any_escaped(u64::from_le_bytes(word)) {
                i += 8;
                continue;
            }
        } else {
            // the last bytes, padded with spaces (which need no escaping)
            let mut word = [b' '; 8];
            for (d, s) in word.iter_mut().zip(bytes.get(i..).unwrap_or_default()) {
                *d = *s;
            }
            if !any_escaped(u64::from_le_bytes(word)) {
                break;
            }
        }
        let b = bytes.get(i).copied().unwrap_or_default();
        i += 1;
        if b >= 0x20 && b != b'"' && b != b'\\' {
            continue;
        }
        let at = i - 1;
        out.extend_from_slice(bytes.get(run..at).unwrap_or_default());
        run = i;
        let letter = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            0x09 => b't',
            0x0a => b'n',
            0x0c => b'f',
            0x0d => b'r',
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let hex = |d: u8| HEX.get(usize::from(d & 0xf)).copied().unwrap_or(b'0');
                out.extend_from_slice(&[b'\\', b'u', b'0', b'0', hex(b >> 4), hex(b)]);
                continue;
            }
        };
        out.extend_from_slice(&[b'\\', letter]);
    }
    out.extend_from_slice(bytes.get(run..).unwrap_or_default());
    out.push(b'"');
}

/// Whether any byte of `w` is below 0x20, `"` or `\\` (exact: the
/// "has a byte less than n" and "has a zero byte" bit tricks, which have
/// no false answer for "any").
fn any_escaped(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let below = |x: u64, n: u64| x.wrapping_sub(ONES * n) & !x & HIGH;
    below(w, 0x20) | below(w ^ (ONES * u64::from(b'"')), 1) | below(w ^ (ONES * u64::from(b'\\')), 1) != 0
}

/// An unsigned integer in decimal (as serde_json's `itoa` writes it).
fn write_u64(out: &mut Vec<u8>, mut v: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        if let Some(d) = digits.get_mut(at) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend_from_slice(digits.get(at..).unwrap_or_default());
}

/// A signed integer in decimal.
fn write_i64(out: &mut Vec<u8>, v: i64) {
    if v < 0 {
        out.push(b'-');
    }
    write_u64(out, v.unsigned_abs());
}

struct Canon<'o> {
    out: &'o mut Vec<u8>,
    st: &'o mut State,
}

/// An object being written: its entries (`"key":value`, separated by
/// commas) are written in the order serialized from `begin` on; `end`
/// reorders them by key when they are not already in order.
struct Object<'o> {
    out: &'o mut Vec<u8>,
    st: &'o mut State,
    /// Where the first entry starts in `out` (after the `{`).
    begin: usize,
    /// This object's first entry in `st.entries`.
    base: usize,
    /// The length of `st.keys` when the object began.
    keys_base: usize,
    /// The key given by `serialize_key`, waiting for its value.
    pending: Option<Key>,
    /// Whether the keys so far are in strictly increasing order.
    in_order: bool,
    /// For a struct or tuple variant: `{"variant":` was written before
    /// `begin` and one `}` closes it.
    close_variant: bool,
}

impl<'o> Object<'o> {
    fn new(out: &'o mut Vec<u8>, st: &'o mut State, close_variant: bool) -> Object<'o> {
        out.push(b'{');
        let begin = out.len();
        let (base, keys_base) = (st.entries.len(), st.keys.len());
        Object { out, st, begin, base, keys_base, pending: None, in_order: true, close_variant }
    }

    fn entry<T: Serialize + ?Sized>(&mut self, key: Key, value: &T) -> Result<()> {
        let text = key.text(&self.st.keys);
        let prefix = prefix_of(text);
        if self.st.entries.len() > self.base {
            self.out.push(b',');
        }
        let start = self.out.len();
        write_str(self.out, text);
        self.out.push(b':');
        value.serialize(Canon { out: &mut *self.out, st: &mut *self.st })?;
        let entry = Entry { prefix, key, start, end: self.out.len() };
        // still in order while each key is after the one before
        if self.in_order && self.st.entries.len() > self.base {
            if let Some(last) = self.st.entries.last() {
                self.in_order = entry.after(last, &self.st.keys);
            }
        }
        self.st.entries.push(entry);
        Ok(())
    }

    fn end(self) -> Result<()> {
        let Object { out, st, begin, base, keys_base, in_order, close_variant, .. } = self;
        let State { entries, keys, scratch } = st;
        let mine = entries.get_mut(base..).unwrap_or_default();
        if !in_order {
            // stable: among equal keys the last one written wins, as in a map
            sort_entries(mine, keys);
            scratch.clear();
            scratch.extend_from_slice(out.get(begin..).unwrap_or_default());
            out.truncate(begin);
            let mut first = true;
            let mut i = 0;
            while let Some(e) = mine.get(i) {
                i += 1;
                if mine.get(i).is_some_and(|next| next.key.text(keys) == e.key.text(keys)) {
                    continue;
                }
                if !first {
                    out.push(b',');
                }
                first = false;
                out.extend_from_slice(scratch.get(e.start - begin..e.end - begin).unwrap_or_default());
            }
        }
        out.push(b'}');
        if close_variant {
            out.push(b'}');
        }
        entries.truncate(base);
        keys.truncate(keys_base);
        Ok(())
    }
}

/// Sorts an object's entries by key, stably: an insertion sort (objects
/// have a few dozen keys at most; each compared by its prefix first).
fn sort_entries(entries: &mut [Entry], keys: &str) {
    for i in 1..entries.len() {
        let Some(cur) = entries.get(i).copied() else { break };
        let mut j = i;
        while j > 0 && entries.get(j - 1).is_some_and(|e| e.after(&cur, keys)) {
            j -= 1;
        }
        if let Some(moved) = entries.get_mut(j..=i) {
            moved.rotate_right(1);
        }
    }
}

/// A JSON array being written.
struct Array<'o> {
    out: &'o mut Vec<u8>,
    st: &'o mut State,
    first: bool,
    close_variant: bool,
}

impl Array<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        value.serialize(Canon { out: &mut *self.out, st: &mut *self.st })
    }

    fn end(self) -> Result<()> {
        self.out.push(b']');
        if self.close_variant {
            self.out.push(b'}');
        }
        Ok(())
    }
}

impl<'o> Canon<'o> {
    /// `{"variant":` of an externally tagged enum variant.
    fn open_variant(&mut self, variant: &'static str) -> Result<()> {
        self.out.push(b'{');
        write_str(self.out, variant);
        self.out.push(b':');
        Ok(())
    }

    fn array(self, close_variant: bool) -> Array<'o> {
        self.out.push(b'[');
        Array { out: self.out, st: self.st, first: true, close_variant }
    }
}

impl<'o> ser::Serializer for Canon<'o> {
    type Ok = ();
    type Error = CanonError;
    type SerializeSeq = Array<'o>;
    type SerializeTuple = Array<'o>;
    type SerializeTupleStruct = Array<'o>;
    type SerializeTupleVariant = Array<'o>;
    type SerializeMap = Object<'o>;
    type SerializeStruct = Object<'o>;
    type SerializeStructVariant = Object<'o>;

    fn serialize_bool(self, v: bool) -> Result<()> {
        self.out.extend_from_slice(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        write_i64(self.out, v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        // as a Value (which may hold it as a number or refuse it)
        let value = serde_json::to_value(v).map_err(|e| CanonError(e.to_string()))?;
        scalar(self.out, &value)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u64(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        write_u64(self.out, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<()> {
        let value = serde_json::to_value(v).map_err(|e| CanonError(e.to_string()))?;
        scalar(self.out, &value)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        // a Value keeps an f32 its own way: write what it prints
        scalar(self.out, &serde_json::Value::from(v))
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        // non-finite: null, as Value::from(f64) is
        scalar(self.out, &serde_json::Value::from(v))
    }
    fn serialize_char(self, v: char) -> Result<()> {
        write_str(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        write_str(self.out, v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        // a Value holds bytes as an array of numbers
        let mut seq = self.array(false);
        for b in v {
            seq.element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.out.extend_from_slice(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.open_variant(variant)?;
        value.serialize(Canon { out: &mut *self.out, st: &mut *self.st })?;
        self.out.push(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Array<'o>> {
        Ok(self.array(false))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Array<'o>> {
        Ok(self.array(false))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Array<'o>> {
        Ok(self.array(false))
    }
    fn serialize_tuple_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Array<'o>> {
        self.open_variant(variant)?;
        Ok(self.array(true))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Object<'o>> {
        Ok(Object::new(self.out, self.st, false))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Object<'o>> {
        Ok(Object::new(self.out, self.st, false))
    }
    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Object<'o>> {
        self.open_variant(variant)?;
        Ok(Object::new(self.out, self.st, true))
    }
}

macro_rules! array_impl {
    ($trait:ident, $method:ident) => {
        impl ser::$trait for Array<'_> {
            type Ok = ();
            type Error = CanonError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
                self.element(value)
            }
            fn end(self) -> Result<()> {
                Array::end(self)
            }
        }
    };
}
array_impl!(SerializeSeq, serialize_element);
array_impl!(SerializeTuple, serialize_element);
array_impl!(SerializeTupleStruct, serialize_field);
array_impl!(SerializeTupleVariant, serialize_field);

impl ser::SerializeMap for Object<'_> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let start = self.st.keys.len();
        key.serialize(KeyText(&mut self.st.keys))?;
        self.pending = Some(Key::Text(start, self.st.keys.len()));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self.pending.take().ok_or_else(|| CanonError("a map value without its key".into()))?;
        self.entry(key, value)
    }
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

impl ser::SerializeStruct for Object<'_> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.entry(Key::Static(key), value)
    }
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

impl ser::SerializeStructVariant for Object<'_> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.entry(Key::Static(key), value)
    }
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

/// A map key as the text a `Value` map would hold: serde_json's own key
/// rules (strings, chars, numbers and bools as text; nothing else).
struct KeyText<'k>(&'k mut String);

impl KeyText<'_> {
    fn via_value<T: Serialize + ?Sized>(self, key: &T) -> Result<()> {
        let text = match serde_json::to_value(SingleKey(key)) {
            Ok(serde_json::Value::Object(m)) => {
                m.into_iter().next().map(|(k, _)| k).ok_or_else(|| CanonError("a map key that is not text".into()))
            }
            Ok(_) => Err(CanonError("a map key that is not text".into())),
            Err(e) => Err(CanonError(e.to_string())),
        }?;
        self.0.push_str(&text);
        Ok(())
    }
}

/// `{key: null}`, to let serde_json say what text `key` has as a map key.
struct SingleKey<'k, T: ?Sized>(&'k T);

impl<T: Serialize + ?Sized> Serialize for SingleKey<'_, T> {
    fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.0, &())?;
        m.end()
    }
}

impl ser::Serializer for KeyText<'_> {
    type Ok = ();
    type Error = CanonError;
    type SerializeSeq = ser::Impossible<(), CanonError>;
    type SerializeTuple = ser::Impossible<(), CanonError>;
    type SerializeTupleStruct = ser::Impossible<(), CanonError>;
    type SerializeTupleVariant = ser::Impossible<(), CanonError>;
    type SerializeMap = ser::Impossible<(), CanonError>;
    type SerializeStruct = ser::Impossible<(), CanonError>;
    type SerializeStructVariant = ser::Impossible<(), CanonError>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.push_str(v);
        Ok(())
    }
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.via_value(&v)
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.0.push(v);
        Ok(())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_none(self) -> Result<()> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        self.via_value(&Some(value))
    }
    fn serialize_unit(self) -> Result<()> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<()> {
        self.0.push_str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeTupleStruct> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(CanonError("a map key that is not text".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::collections::{BTreeMap, HashMap};

    fn canon<T: Serialize>(v: &T) -> String {
        let mut out = Vec::new();
        Writer::default().write(v, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The oracle: serde_json's Value, printed.
    fn via_value<T: Serialize>(v: &T) -> String {
        serde_json::to_value(v).unwrap().to_string()
    }

    #[derive(Serialize)]
    struct Inner {
        z: f64,
        a: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<u32>,
        text: &'static str,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "snake_case")]
    enum Kind {
        UnitOne,
        New(u8),
        Tuple(u8, &'static str),
        Fields { b: u8, a: i64 },
    }

    #[derive(Serialize)]
    #[serde(tag = "type")]
    enum Tagged {
        Quote { exact: String, prefix: String },
        Position { start: usize },
    }

    #[derive(Serialize)]
    struct Outer {
        zeta: Vec<Inner>,
        #[serde(flatten)]
        flat: Inner,
        kinds: Vec<Kind>,
        tagged: Vec<Tagged>,
        map: BTreeMap<String, i32>,
        hashed: HashMap<u32, bool>,
        floats: Vec<f64>,
        small: f32,
        bytes: serde_bytes_like::Bytes,
        ch: char,
        unit: (),
        big: u64,
        neg: i64,
    }

    mod serde_bytes_like {
        pub struct Bytes(pub Vec<u8>);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn equals_value_display_on_every_shape() {
        let inner =
            |z: f64, a: Option<u32>| Inner { z, a, skipped: None, text: "é \"q\" \\ \n\t\u{1} 😀 </script>" };
        let v = Outer {
            zeta: vec![inner(0.1, Some(3)), inner(1e300, None), inner(-0.0, Some(0))],
            flat: inner(2.5, Some(7)),
            kinds: vec![Kind::UnitOne, Kind::New(4), Kind::Tuple(1, "x"), Kind::Fields { b: 2, a: -9 }],
            tagged: vec![Tagged::Quote { exact: "e".into(), prefix: "p".into() }, Tagged::Position { start: 4 }],
            map: [("b".to_string(), 1), ("a".to_string(), 2), ("ab".to_string(), 3), ("B".to_string(), 4)]
                .into_iter()
                .collect(),
            hashed: [(10, true), (2, false), (33, true)].into_iter().collect(),
            floats: vec![f64::NAN, f64::INFINITY, 1.0, 0.30000000000000004, 1e-7, 123456789.0, 5e-324],
            small: 0.1,
            bytes: serde_bytes_like::Bytes(vec![0, 255, 7]),
            ch: 'ß',
            unit: (),
            big: u64::MAX,
            neg: i64::MIN,
        };
        assert_eq!(canon(&v), via_value(&v));
    }

    #[test]
    fn equals_value_display_on_values_and_repeated_keys() {
        let v = json!({"b": 1, "a": {"d": [1, 2.5, null, true], "c": null, "é": "x", "E": {}}, "": []});
        assert_eq!(canon(&v), v.to_string());
        assert_eq!(canon(&v), r#"{"":[],"a":{"E":{},"c":null,"d":[1,2.5,null,true],"é":"x"},"b":1}"#);
        // a key written twice (a flattened field beside one of the same name): the last wins
        struct Twice;
        impl Serialize for Twice {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use ser::SerializeMap;
                let mut m = s.serialize_map(None)?;
                m.serialize_entry("k", &1)?;
                m.serialize_entry("a", &2)?;
                m.serialize_entry("k", &3)?;
                m.end()
            }
        }
        assert_eq!(canon(&Twice), via_value(&Twice));
        assert_eq!(canon(&Twice), r#"{"a":2,"k":3}"#);
    }

    /// Random text from pieces the fast paths must get right: every ASCII
    /// control character, quotes and backslashes, CRLF, emoji (and ZWJ
    /// sequences), CJK, combining marks.
    fn random_text(rng: &mut crate::test_rng::SplitMix64) -> String {
        let pieces: Vec<&str> = "a|Z| |\"|\\|/|\r\n|\n|\t|\u{7f}|é|e\u{301}|\u{1F600}|\u{1F469}\u{200D}\u{1F4BB}|中文|\u{FEFF}|\u{2028}|<|&|key|0|-"
            .split('|')
            .collect();
        let mut s = String::new();
        for _ in 0..rng.below(12) {
            if rng.below(4) == 0 {
                s.push(char::from(rng.below(0x20) as u8));
            } else {
                s.push_str(rng.pick(&pieces));
            }
        }
        s
    }

    #[test]
    fn strings_and_integers_as_serde_json_writes_them() {
        let mut out = Vec::new();
        for b in 0u8..=0x7f {
            let s = char::from(b).to_string();
            out.clear();
            write_str(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "byte {b:#x}");
        }
        let mut rng = crate::test_rng::SplitMix64(12);
        for _ in 0..3000 {
            let s = random_text(&mut rng);
            out.clear();
            write_str(&mut out, &s);
            assert_eq!(out, serde_json::to_vec(&s).unwrap(), "{s:?}");
        }
        let mut unsigned = vec![0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX - 1, u64::MAX];
        unsigned.extend((0..2000).map(|_| rng.next_u64() >> rng.below(64)));
        for v in unsigned {
            out.clear();
            write_u64(&mut out, v);
            assert_eq!(out, serde_json::to_vec(&v).unwrap());
            let i = v as i64;
            out.clear();
            write_i64(&mut out, i);
            assert_eq!(out, serde_json::to_vec(&i).unwrap());
        }
        for i in [i64::MIN, i64::MIN + 1, -1, 0, i64::MAX] {
            out.clear();
            write_i64(&mut out, i);
            assert_eq!(out, serde_json::to_vec(&i).unwrap());
        }
    }

    /// Random values (objects with keys in and out of order, repeated in
    /// flattened structs, more than the small sort's 32, nested) against
    /// the `Value` path, one writer reused for all of them.
    #[test]
    fn equals_value_display_on_random_values() {
        fn value(rng: &mut crate::test_rng::SplitMix64, depth: usize) -> serde_json::Value {
            match rng.below(if depth > 3 { 5 } else { 8 }) {
                0 => serde_json::Value::Null,
                1 => serde_json::Value::from(rng.below(2) == 0),
                2 => serde_json::Value::from(rng.next_u64() as i64 >> rng.below(64)),
                3 => serde_json::Value::from(rng.next_u64() >> rng.below(64)),
                4 => serde_json::Value::from(random_text(rng)),
                5 => serde_json::Value::from((0..rng.below(5)).map(|_| value(rng, depth + 1)).collect::<Vec<_>>()),
                _ => {
                    let n = if rng.below(8) == 0 { 30 + rng.below(10) } else { rng.below(6) };
                    serde_json::Value::Object((0..n).map(|_| (random_text(rng), value(rng, depth + 1))).collect())
                }
            }
        }
        /// A map in the order given (keys may repeat, as with `flatten`).
        struct Entries(Vec<(String, serde_json::Value)>);
        impl Serialize for Entries {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                use ser::SerializeMap;
                let mut m = s.serialize_map(None)?;
                for (k, v) in &self.0 {
                    m.serialize_entry(k, v)?;
                }
                m.end()
            }
        }
        let mut rng = crate::test_rng::SplitMix64(7);
        let mut writer = Writer::default();
        let mut out = Vec::new();
        for _ in 0..2000 {
            let v = value(&mut rng, 0);
            out.clear();
            writer.write(&v, &mut out).unwrap();
            assert_eq!(String::from_utf8(out.clone()).unwrap(), v.to_string());
            let keys = ["b", "a", "", "ab", "é", "B", "a\"", "\u{1}"];
            let n = rng.below(40);
            let e = Entries((0..n).map(|_| (rng.pick(&keys).to_string(), value(&mut rng, 2))).collect());
            out.clear();
            writer.write(&e, &mut out).unwrap();
            assert_eq!(String::from_utf8(out.clone()).unwrap(), via_value(&e));
        }
    }
}
