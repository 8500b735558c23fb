//! Markup that is escaped by construction. Every piece of HTML the page sets from strings (the cards, the charts'
//! SVG, the chart table, the details worker's replies) is an [`Html`], and the only ways to build one are:
//! - [`html!`](crate::html!): a format string literal, which is the page's own markup, with positional arguments,
//!   each written through [`Interpolate`]: text (`&str`, `String`) is escaped, integers are written as they are,
//!   an [`Html`] is markup already; an `f64` does not compile (numbers reach markup as text from
//!   `estimator_core::human`). A format string may not name a variable (`{k}`), which would bypass the escaping:
//!   `tests/tests/markup.rs` checks every `html!` in the crate for it.
//! - [`Html::from_static`] and [`Html::push_static`] for the page's own literal markup.

use std::fmt::{self, Display, Write as _};

/// HTML markup, built from the page's own templates and escaped text (a string in the worker's replies; never read
/// back from one).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(transparent)]
pub struct Html(String);

impl Html {
    /// No markup.
    pub fn new() -> Html {
        Html(String::new())
    }

    /// The page's own literal markup.
    pub fn from_static(markup: &'static str) -> Html {
        Html(markup.to_string())
    }

    /// Appends the page's own literal markup.
    pub fn push_static(&mut self, markup: &'static str) {
        self.0.push_str(markup);
    }

    /// Appends other markup.
    pub fn push(&mut self, other: &Html) {
        self.0.push_str(&other.0);
    }

    /// Appends a template filled by `html!`, whose arguments are all [`Arg`]s.
    #[doc(hidden)]
    pub fn write_args(&mut self, args: fmt::Arguments<'_>) {
        // Writing into a String cannot fail.
        let _ = self.0.write_fmt(args);
    }

    /// The markup.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The markup, for `inner_html` or a worker's reply.
    pub fn into_string(self) -> String {
        self.0
    }
}

/// Read access to the markup (tests look for what it contains).
impl std::ops::Deref for Html {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Display for Html {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How a value is written into markup.
pub trait Interpolate {
    /// Writes the value: text escaped, markup as it is.
    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
}

impl Interpolate for str {
    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self;
        while let Some(i) = rest.find(['&', '<', '>', '"', '\'']) {
            f.write_str(rest.get(..i).unwrap_or_default())?;
            let entity = match rest.as_bytes().get(i) {
                Some(b'&') => "&amp;",
                Some(b'<') => "&lt;",
                Some(b'>') => "&gt;",
                Some(b'"') => "&quot;",
                _ => "&#39;",
            };
            f.write_str(entity)?;
            rest = rest.get(i + 1..).unwrap_or_default();
        }
        f.write_str(rest)
    }
}

impl Interpolate for String {
    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_str().write_to(f)
    }
}

impl Interpolate for Html {
    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl<T: Interpolate + ?Sized> Interpolate for &T {
    fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).write_to(f)
    }
}

macro_rules! plain_integers {
    ($($t:ty),*) => {$(
        impl Interpolate for $t {
            fn write_to(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                Display::fmt(self, f)
            }
        }
    )*};
}
plain_integers!(u8, u16, u32, u64, usize, i32, i64);

/// An argument of `html!`: written through [`Interpolate`].
#[doc(hidden)]
pub struct Arg<'a, T: ?Sized>(pub &'a T);

impl<T: Interpolate + ?Sized> Display for Arg<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write_to(f)
    }
}

/// Appends a template to an [`Html`]: `html!(out, "<li id=\"{0}-x\">{1}</li>", key, text)`. The format string is
/// the page's own markup; every argument is escaped unless it is an [`Html`]. Positional arguments only.
#[macro_export]
macro_rules! html {
    ($out:expr, $fmt:literal, $($arg:expr),+ $(,)?) => {
        $out.write_args(format_args!($fmt, $($crate::html::Arg(&$arg)),+))
    };
}
