//! Request members other than boards: named choices ([`Choice`]: levels, symmetries, board
//! representations) and whole numbers ([`optional_integer`]), read from JSON or the command line
//! with errors that say what was found and what was expected.
//!
//! JSON Schema's `integer` is a number with no fraction, so `1000.0` and `1e3` are the integer
//! 1000 ([`whole_number`]); every integer a request holds is read that way, board cells too.
//! A choice's one list, [`Choice::ALL`], gives its names in JSON and on the command line and
//! lists them in every error.
//!
//! Objects ([`Object`]) are read strictly: a JSON object whose members are all the struct's own,
//! so a member misspelt or put in the wrong place is refused, naming it (and where it belongs,
//! when it is another object's), rather than ignored; and an object, not an array of the
//! struct's fields in order, as serde's derived readers also take.

use std::borrow::Cow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A closed set of choices, each known by a lowercase name. The crate's `choice_traits!` derives
/// `Display`, `FromStr`, `Serialize` and `Deserialize` from it, so names are written once.
pub trait Choice: Copy + 'static {
    /// What one choice is, in messages: `level`.
    const KIND: &'static str;
    /// Every choice, in the order messages list them.
    const ALL: &'static [Self];
    /// The lowercase name used in JSON and on the command line.
    fn name(self) -> &'static str;
}

/// The choice named `text`.
pub fn parse<T: Choice>(text: &str) -> Result<T, UnknownChoice> {
    find(text).ok_or_else(|| UnknownChoice { kind: T::KIND, found: text.to_owned(), expected: one_of::<T>() })
}

fn find<T: Choice>(text: &str) -> Option<T> {
    T::ALL.iter().copied().find(|choice| choice.name() == text)
}

/// `one of "easy", "medium", "hard"`: the names of `T`, quoted as JSON strings.
pub fn one_of<T: Choice>() -> String {
    let names: Vec<String> = T::ALL.iter().map(|choice| format!("\"{}\"", choice.name())).collect();
    format!("one of {}", names.join(", "))
}

/// A name that is none of a [`Choice`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} {found:?}: expected {expected}")]
pub struct UnknownChoice {
    kind: &'static str,
    found: String,
    expected: String,
}

/// `Display` (the name, padded as asked: `{:<10}`), `FromStr`, `Serialize` and `Deserialize` for a [`Choice`].
/// Exported for the service's own choices (an image's format, a page's size); the crate using it
/// needs `serde`.
#[doc(hidden)]
#[macro_export]
macro_rules! choice_traits {
    ($choice:ty) => {
        impl std::fmt::Display for $choice {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad($crate::member::Choice::name(*self))
            }
        }

        impl std::str::FromStr for $choice {
            type Err = $crate::member::UnknownChoice;

            fn from_str(text: &str) -> Result<$choice, $crate::member::UnknownChoice> {
                $crate::member::parse(text)
            }
        }

        impl serde::Serialize for $choice {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str($crate::member::Choice::name(*self))
            }
        }

        impl<'de> serde::Deserialize<'de> for $choice {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$choice, D::Error> {
                $crate::member::deserialize_choice(deserializer)
            }
        }
    };
}
pub use crate::choice_traits;

/// Reads a choice by name; anything else is `found <value>; expected one of "a", "b"`.
#[doc(hidden)]
pub fn deserialize_choice<'de, T: Choice, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_any(MemberVisitor {
        expected: one_of::<T>,
        accept: |found: Found<'_>| match found {
            Found::Text(text) => find(text),
            _ => None,
        },
        value: PhantomData,
    })
}

/// The integer a JSON number stands for when it has no fraction and fits a `u64`: `3.0` and
/// `3e0` are 3, `-0` is 0, as JSON Schema's `integer` has it. `None` for `2.5`, `-1` or `1e20`.
pub fn whole_number(value: f64) -> Option<u64> {
    // 2^64 is exact as an f64; every whole f64 below it converts exactly.
    (value.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&value)).then_some(value as u64)
}

/// For `#[serde(default, deserialize_with = "...")]` on an `Option<u64>` member: a whole
/// number (see [`whole_number`]), `null` or absent for `None`; anything else is
/// `found <value>; expected an integer from 0 to 18446744073709551615`.
pub fn optional_integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    deserializer.deserialize_any(MemberVisitor {
        expected: || format!("an integer from 0 to {}", u64::MAX),
        accept: |found: Found<'_>| match found {
            Found::Null => Some(None),
            found => as_integer(found).map(Some),
        },
        value: PhantomData,
    })
}

/// For `#[serde(deserialize_with = "...")]` on a `u64` member that must be present: a whole
/// number (see [`whole_number`]); anything else is
/// `found <value>; expected an integer from 0 to 18446744073709551615`.
pub fn integer<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    deserializer.deserialize_any(MemberVisitor {
        expected: || format!("an integer from 0 to {}", u64::MAX),
        accept: as_integer,
        value: PhantomData,
    })
}

/// The integer `found` is, if it is one (see [`whole_number`]).
fn as_integer(found: Found<'_>) -> Option<u64> {
    match found {
        Found::Unsigned(number) => Some(number),
        Found::Signed(number) => u64::try_from(number).ok(),
        Found::Float(number) => whole_number(number),
        _ => None,
    }
}

/// A JSON value as a member's error message shows it: scalars as written, arrays and objects
/// by kind.
#[derive(Clone, Copy, Debug)]
enum Found<'a> {
    Null,
    Bool(bool),
    Unsigned(u64),
    Signed(i64),
    Float(f64),
    Text(&'a str),
    Array,
    Object,
}

/// Longest part of a string echoed back in a message.
const ECHO_CHARS: usize = 32;

impl fmt::Display for Found<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Found::Null => f.write_str("null"),
            Found::Bool(flag) => write!(f, "{flag}"),
            Found::Unsigned(number) => write!(f, "{number}"),
            Found::Signed(number) => write!(f, "{number}"),
            // Debug keeps the fraction ("2.5", "1e20"), so the message shows why it is refused.
            Found::Float(number) => write!(f, "{number:?}"),
            Found::Text(text) => write!(f, "{:?}", text.chars().take(ECHO_CHARS).collect::<String>()),
            Found::Array => f.write_str("an array"),
            Found::Object => f.write_str("an object"),
        }
    }
}

/// Reads one member with `accept`, which takes the value as found or refuses it (`None`).
/// `expected` says what it takes; it is only called for a refusal, so an accepted value costs
/// no message.
struct MemberVisitor<T, F> {
    expected: fn() -> String,
    accept: F,
    value: PhantomData<T>,
}

impl<T, F: FnOnce(Found<'_>) -> Option<T>> MemberVisitor<T, F> {
    fn read<E: de::Error>(self, found: Found<'_>) -> Result<T, E> {
        let expected = self.expected;
        (self.accept)(found).ok_or_else(|| E::custom(format_args!("found {found}; expected {}", expected())))
    }
}

impl<'de, T, F: FnOnce(Found<'_>) -> Option<T>> Visitor<'de> for MemberVisitor<T, F> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&(self.expected)())
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        self.read(Found::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        self.read(Found::Null)
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<T, E> {
        self.read(Found::Bool(flag))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<T, E> {
        self.read(Found::Unsigned(number))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<T, E> {
        self.read(Found::Signed(number))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<T, E> {
        self.read(Found::Float(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        self.read(Found::Text(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        self.read(Found::Array)
    }

    fn visit_map<A: MapAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        self.read(Found::Object)
    }
}

/// A struct read from a JSON object whose members must all be its own.
///
/// The struct derives `Deserialize` with `#[serde(remote = "Self")]`, which makes the derived
/// reader an inherent `deserialize` rather than the trait's; [`Object::read_members`] calls it,
/// and [`object_traits!`] implements `Deserialize` through [`deserialize_object`], which first
/// insists on an object and refuses any member the struct does not have.
pub trait Object: Sized {
    /// The derived reader (the inherent `deserialize` of `#[serde(remote = "Self")]`).
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error>;

    /// Where `member`, not one of this object's, belongs, when it is another object's: "inside
    /// `constraints`". `None`, the default, for a member nothing has.
    fn belongs(_member: &str) -> Option<String> {
        None
    }
}

/// `Deserialize` for an [`Object`]: read through [`deserialize_object`]. The crate using it needs
/// `serde`.
#[doc(hidden)]
#[macro_export]
macro_rules! object_traits {
    ($object:ty) => {
        impl<'de> serde::Deserialize<'de> for $object {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<$object, D::Error> {
                $crate::member::deserialize_object(deserializer)
            }
        }
    };
}
pub use crate::object_traits;

/// Reads an [`Object`]: anything but a JSON object is `found <value>; expected an object`, and a
/// member the object does not have is refused by name ([`unknown_member`]).
pub fn deserialize_object<'de, T: Object, D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
    deserializer.deserialize_any(ObjectVisitor(PhantomData))
}

/// The members of an [`Object`], as its derived reader names them (renamed ones by their JSON
/// names), in the struct's order.
pub fn members<T: Object>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The derived reader asks for a struct of its fields, then fails on the probe's error.
    let _ = T::read_members(Probe(&mut fields));
    fields
}

/// Why a member is refused: `` unknown member `varient`; expected `board`, `box`, ... `` or,
/// when it belongs elsewhere, `` `cages` belongs inside `constraints`, not here ``.
pub fn unknown_member(member: &str, expected: &[&str], belongs: Option<String>) -> String {
    let member = member.chars().take(ECHO_CHARS).collect::<String>();
    match belongs {
        Some(place) => format!("`{member}` belongs {place}, not here"),
        None => {
            let names: Vec<String> = expected.iter().map(|name| format!("`{name}`")).collect();
            format!("unknown member `{member}`; expected {}", names.join(", "))
        }
    }
}

struct ObjectVisitor<T>(PhantomData<T>);

impl<T> ObjectVisitor<T> {
    fn refuse<E: de::Error, V>(found: Found<'_>) -> Result<V, E> {
        Err(E::custom(format_args!("found {found}; expected an object")))
    }
}

impl<'de, T: Object> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::read_members(Members { map, belongs: T::belongs })
    }

    fn visit_unit<E: de::Error>(self) -> Result<T, E> {
        Self::refuse(Found::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<T, E> {
        Self::refuse(Found::Null)
    }

    fn visit_bool<E: de::Error>(self, flag: bool) -> Result<T, E> {
        Self::refuse(Found::Bool(flag))
    }

    fn visit_u64<E: de::Error>(self, number: u64) -> Result<T, E> {
        Self::refuse(Found::Unsigned(number))
    }

    fn visit_i64<E: de::Error>(self, number: i64) -> Result<T, E> {
        Self::refuse(Found::Signed(number))
    }

    fn visit_f64<E: de::Error>(self, number: f64) -> Result<T, E> {
        Self::refuse(Found::Float(number))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        Self::refuse(Found::Text(text))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        Self::refuse(Found::Array)
    }
}

/// An object's members, handed to its derived reader, which asks for a struct of its fields:
/// each key is checked against them before the reader sees it.
struct Members<A> {
    map: A,
    belongs: fn(&str) -> Option<String>,
}

impl<'de, A: MapAccess<'de>> Deserializer<'de> for Members<A> {
    type Error = A::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, A::Error> {
        visitor.visit_map(self.map)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, A::Error> {
        visitor.visit_map(CheckedKeys { map: self.map, fields, belongs: self.belongs })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// A map whose keys must be among `fields`.
struct CheckedKeys<A> {
    map: A,
    fields: &'static [&'static str],
    belongs: fn(&str) -> Option<String>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for CheckedKeys<A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, A::Error> {
        let Some(Key(key)) = self.map.next_key::<Key<'de>>()? else { return Ok(None) };
        if !self.fields.contains(&key.as_ref()) {
            return Err(de::Error::custom(unknown_member(&key, self.fields, (self.belongs)(&key))));
        }
        match key {
            Cow::Borrowed(key) => seed.deserialize(BorrowedStrDeserializer::new(key)).map(Some),
            Cow::Owned(key) => seed.deserialize(StrDeserializer::new(&key)).map(Some),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        self.map.next_value_seed(seed)
    }

    fn size_hint(&self) -> Option<usize> {
        self.map.size_hint()
    }
}

/// A member's name, borrowed from the input when it can be.
struct Key<'de>(Cow<'de, str>);

impl<'de> serde::Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        struct KeyVisitor;

        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member's name")
            }

            fn visit_borrowed_str<E: de::Error>(self, key: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(key)))
            }

            fn visit_str<E: de::Error>(self, key: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key.to_owned())))
            }

            fn visit_string<E: de::Error>(self, key: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(key)))
            }
        }

        deserializer.deserialize_str(KeyVisitor)
    }
}

/// A deserializer that only notes the fields a derived reader asks for ([`members`]).
struct Probe<'a>(&'a mut &'static [&'static str]);

/// The one error of a [`Probe`].
#[derive(Debug)]
struct Probed;

impl fmt::Display for Probed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("probed")
    }
}

impl std::error::Error for Probed {}

impl de::Error for Probed {
    fn custom<T: fmt::Display>(_: T) -> Probed {
        Probed
    }
}

impl<'de> Deserializer<'de> for Probe<'_> {
    type Error = Probed;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Probed> {
        Err(Probed)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Probed> {
        *self.0 = fields;
        Err(Probed)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    enum Shade {
        Light,
        Dark,
    }

    impl Choice for Shade {
        const KIND: &'static str = "shade";
        const ALL: &'static [Shade] = &[Shade::Light, Shade::Dark];

        fn name(self) -> &'static str {
            match self {
                Shade::Light => "light",
                Shade::Dark => "dark",
            }
        }
    }

    choice_traits!(Shade);

    #[derive(Debug, Deserialize)]
    struct Request {
        #[serde(default, deserialize_with = "optional_integer")]
        count: Option<u64>,
    }

    fn message<T: serde::de::DeserializeOwned + fmt::Debug>(json: &str) -> String {
        let error = serde_json::from_str::<T>(json).unwrap_err();
        error.to_string()
    }

    #[test]
    fn choices_read_and_write_their_names_and_list_them_when_refused() {
        assert_eq!(format!("[{:<6}]", Shade::Dark), "[dark  ]");
        for shade in [Shade::Light, Shade::Dark] {
            assert_eq!(shade.to_string().parse::<Shade>(), Ok(shade));
            let json = serde_json::to_string(&shade).unwrap();
            assert_eq!(json, format!("\"{shade}\""));
            assert_eq!(serde_json::from_str::<Shade>(&json).unwrap(), shade);
        }
        let unknown = "Dark".parse::<Shade>().unwrap_err();
        assert_eq!(unknown.to_string(), r#"unknown shade "Dark": expected one of "light", "dark""#);
        for (json, found) in [
            ("null", "null"),
            ("1", "1"),
            ("-1", "-1"),
            ("1.5", "1.5"),
            ("true", "true"),
            (r#""grey""#, r#""grey""#),
            ("[]", "an array"),
            (r#"{"a":1}"#, "an object"),
        ] {
            let expected = format!(r#"found {found}; expected one of "light", "dark" at line 1"#);
            assert!(message::<Shade>(json).starts_with(&expected), "{json}: {}", message::<Shade>(json));
        }
    }

    #[test]
    fn integers_are_whole_numbers_however_written() {
        for (json, count) in [
            ("{}", None),
            (r#"{"count":null}"#, None),
            (r#"{"count":7}"#, Some(7)),
            (r#"{"count":7.0}"#, Some(7)),
            (r#"{"count":1e3}"#, Some(1000)),
            (r#"{"count":-0}"#, Some(0)),
            (r#"{"count":18446744073709551615}"#, Some(u64::MAX)),
            (r#"{"count":1e19}"#, Some(10_000_000_000_000_000_000)),
        ] {
            assert_eq!(serde_json::from_str::<Request>(json).unwrap().count, count, "{json}");
        }
        for (json, found) in [
            (r#"{"count":-1}"#, "-1"),
            (r#"{"count":2.5}"#, "2.5"),
            (r#"{"count":18446744073709551616}"#, "1.8446744073709552e19"),
            (r#"{"count":"7"}"#, r#""7""#),
            (r#"{"count":true}"#, "true"),
            (r#"{"count":[7]}"#, "an array"),
        ] {
            let expected = format!("found {found}; expected an integer from 0 to 18446744073709551615 at");
            assert!(message::<Request>(json).starts_with(&expected), "{json}: {}", message::<Request>(json));
        }
    }

    #[test]
    fn whole_numbers_have_no_fraction_and_fit_u64() {
        assert_eq!(whole_number(3.0), Some(3));
        assert_eq!(whole_number(-0.0), Some(0));
        assert_eq!(whole_number(18_446_744_073_709_549_568.0), Some(18_446_744_073_709_549_568));
        for refused in [2.5, -1.0, 18_446_744_073_709_551_616.0, f64::NAN, f64::INFINITY] {
            assert_eq!(whole_number(refused), None, "{refused}");
        }
    }

    /// A strict object, as the crate's requests and constraints are.
    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(remote = "Self")]
    struct Point {
        x: u8,
        #[serde(default, rename = "why")]
        y: u8,
    }

    impl Object for Point {
        fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Point, D::Error> {
            Point::deserialize(deserializer)
        }

        fn belongs(member: &str) -> Option<String> {
            (member == "z").then(|| "in three dimensions".to_owned())
        }
    }

    object_traits!(Point);

    #[test]
    fn an_object_takes_its_own_members_only_and_only_as_an_object() {
        assert_eq!(members::<Point>(), ["x", "why"]);
        // Without the position serde_json adds.
        let read = |json: &str| {
            serde_json::from_str::<Point>(json)
                .map_err(|error| error.to_string().split(" at line").next().unwrap_or_default().to_owned())
        };
        assert_eq!(read(r#"{"x":1,"why":2}"#), Ok(Point { x: 1, y: 2 }));
        assert_eq!(read(r#"{"x":1}"#), Ok(Point { x: 1, y: 0 }));
        assert_eq!(read(r#"{"x":1,"x":2}"#).unwrap_err(), "duplicate field `x`");
        assert_eq!(read(r#"{"x":1,"y":2}"#).unwrap_err(), "unknown member `y`; expected `x`, `why`");
        assert_eq!(read(r#"{"z":1}"#).unwrap_err(), "`z` belongs in three dimensions, not here");
        assert_eq!(read("[1,2]").unwrap_err(), "found an array; expected an object");
        assert_eq!(read("null").unwrap_err(), "found null; expected an object");
        // An escaped name is read as the name it stands for.
        assert_eq!(read(r#"{"\u0078":3}"#), Ok(Point { x: 3, y: 0 }));
        // From a tree too.
        let value = serde_json::json!({"x": 4, "w": 1});
        let error = serde_json::from_value::<Point>(value).unwrap_err().to_string();
        assert_eq!(error, "unknown member `w`; expected `x`, `why`");
    }
}
