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
use std::borrow::Cow;
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

/// Appends the canonical JSON of `value` to `out`.
pub(crate) fn write<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) -> Result<()> {
    value.serialize(Canon { out })
}

/// A scalar through serde_json's serializer (its number formatting and
/// string escaping, which `Value`'s `Display` uses too).
fn scalar<T: Serialize + ?Sized>(out: &mut Vec<u8>, v: &T) -> Result<()> {
    serde_json::to_writer(out, v).map_err(|e| CanonError(e.to_string()))
}

struct Canon<'o> {
    out: &'o mut Vec<u8>,
}

/// An object being written: its entries' values are appended to `out` from
/// `begin` on, in the order serialized; `end` reorders them by key.
struct Object<'o> {
    out: &'o mut Vec<u8>,
    begin: usize,
    /// (key, start, end of its value in `out`).
    entries: Vec<(Cow<'static, str>, usize, usize)>,
    /// The key given by `serialize_key`, waiting for its value.
    pending: Option<Cow<'static, str>>,
    /// For a struct or tuple variant: `{"variant":` was written before
    /// `begin` and one `}` closes it.
    close_variant: bool,
}

impl<'o> Object<'o> {
    fn new(out: &'o mut Vec<u8>, close_variant: bool) -> Object<'o> {
        let begin = out.len();
        Object { out, begin, entries: Vec::new(), pending: None, close_variant }
    }

    fn entry<T: Serialize + ?Sized>(&mut self, key: Cow<'static, str>, value: &T) -> Result<()> {
        let start = self.out.len();
        value.serialize(Canon { out: &mut *self.out })?;
        self.entries.push((key, start, self.out.len()));
        Ok(())
    }

    fn end(self) -> Result<()> {
        let Object { out, begin, mut entries, close_variant, .. } = self;
        let values = out.split_off(begin);
        // stable: among equal keys the last one written wins, as in a map
        crate::sort::sort_by(&mut entries, |a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        out.push(b'{');
        let mut first = true;
        let mut i = 0;
        while let Some((key, start, end)) = entries.get(i) {
            i += 1;
            if entries.get(i).is_some_and(|next| next.0 == *key) {
                continue;
            }
            if !first {
                out.push(b',');
            }
            first = false;
            scalar(out, key.as_ref())?;
            out.push(b':');
            out.extend_from_slice(values.get(*start - begin..*end - begin).unwrap_or_default());
        }
        out.push(b'}');
        if close_variant {
            out.push(b'}');
        }
        Ok(())
    }
}

/// A JSON array being written.
struct Array<'o> {
    out: &'o mut Vec<u8>,
    first: bool,
    close_variant: bool,
}

impl Array<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        value.serialize(Canon { out: &mut *self.out })
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
        scalar(self.out, variant)?;
        self.out.push(b':');
        Ok(())
    }

    fn array(self, close_variant: bool) -> Array<'o> {
        self.out.push(b'[');
        Array { out: self.out, first: true, close_variant }
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
        scalar(self.out, &v)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_i128(self, v: i128) -> Result<()> {
        // as a Value (which may hold it as a number or refuse it)
        let value = serde_json::to_value(v).map_err(|e| CanonError(e.to_string()))?;
        scalar(self.out, &value)
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        scalar(self.out, &v)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        scalar(self.out, &v)
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
        scalar(self.out, &v)
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        scalar(self.out, v)
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
        value.serialize(Canon { out: &mut *self.out })?;
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
        Ok(Object::new(self.out, false))
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Object<'o>> {
        Ok(Object::new(self.out, false))
    }
    fn serialize_struct_variant(
        mut self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Object<'o>> {
        self.open_variant(variant)?;
        Ok(Object::new(self.out, true))
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
        self.pending = Some(Cow::Owned(key.serialize(KeyText)?));
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
        self.entry(Cow::Borrowed(key), value)
    }
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

impl ser::SerializeStructVariant for Object<'_> {
    type Ok = ();
    type Error = CanonError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<()> {
        self.entry(Cow::Borrowed(key), value)
    }
    fn end(self) -> Result<()> {
        Object::end(self)
    }
}

/// A map key as the text a `Value` map would hold: serde_json's own key
/// rules (strings, chars, numbers and bools as text; nothing else).
struct KeyText;

impl KeyText {
    fn via_value<T: Serialize + ?Sized>(key: &T) -> Result<String> {
        match serde_json::to_value(SingleKey(key)) {
            Ok(serde_json::Value::Object(m)) => {
                m.into_iter().next().map(|(k, _)| k).ok_or_else(|| CanonError("a map key that is not text".into()))
            }
            Ok(_) => Err(CanonError("a map key that is not text".into())),
            Err(e) => Err(CanonError(e.to_string())),
        }
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

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = CanonError;
    type SerializeSeq = ser::Impossible<String, CanonError>;
    type SerializeTuple = ser::Impossible<String, CanonError>;
    type SerializeTupleStruct = ser::Impossible<String, CanonError>;
    type SerializeTupleVariant = ser::Impossible<String, CanonError>;
    type SerializeMap = ser::Impossible<String, CanonError>;
    type SerializeStruct = ser::Impossible<String, CanonError>;
    type SerializeStructVariant = ser::Impossible<String, CanonError>;

    fn serialize_str(self, v: &str) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_bool(self, v: bool) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_i8(self, v: i8) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_i16(self, v: i16) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_i32(self, v: i32) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_i64(self, v: i64) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_u8(self, v: u8) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_u16(self, v: u16) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_u32(self, v: u32) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_u64(self, v: u64) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_f32(self, v: f32) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_f64(self, v: f64) -> Result<String> {
        KeyText::via_value(&v)
    }
    fn serialize_char(self, v: char) -> Result<String> {
        Ok(v.to_string())
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<String> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_none(self) -> Result<String> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<String> {
        KeyText::via_value(&Some(value))
    }
    fn serialize_unit(self) -> Result<String> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<String> {
        Err(CanonError("a map key that is not text".into()))
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Result<String> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _name: &'static str, value: &T) -> Result<String> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<String> {
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
        write(v, &mut out).unwrap();
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
}
