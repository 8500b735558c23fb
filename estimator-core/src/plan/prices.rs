//! Prices per GPU-hour and offers the user describes: `ID=USD` as typed (`--price`), and CSV with a header
//! (`id,usd_per_gpu_hour` and, for an offer of the user's own, `name,gpu,gpus_per_node,adapters,link_gbps,fabric,gdr`).
//! Every value is checked here, and an error names the line and the column.

use serde::{Deserialize, Serialize};

use crate::catalog::{self, Lookup};
use crate::fabric::Fabric;
use crate::offer::NodeOffer;

/// A price for an offer, or an offer of the user's own (with its price, if any).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PriceRow {
    /// The offer's id: a catalog offer's, or the user's own.
    pub id: String,
    /// USD per GPU-hour.
    pub usd_per_gpu_hour: Option<f64>,
    /// The user's own offer, when the row describes one.
    pub offer: Option<NodeOffer>,
}

/// Why a price or an offer was refused: where, which column, why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{at}, {column}: {why}")]
pub struct PriceError {
    /// `line 3`, or `--price` for a typed one.
    pub at: String,
    /// The column (`usd_per_gpu_hour`, `link_gbps`, ...).
    pub column: String,
    /// Why.
    pub why: String,
}

/// The columns of a row, as text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RawRow {
    /// `id`.
    pub id: Option<String>,
    /// `usd_per_gpu_hour` (also `price`).
    pub price: Option<String>,
    /// `name`.
    pub name: Option<String>,
    /// `gpu`.
    pub gpu: Option<String>,
    /// `gpus_per_node`.
    pub gpus_per_node: Option<String>,
    /// `nvlink_domain_gpus` (optional: the node).
    pub nvlink_domain_gpus: Option<String>,
    /// `adapters`.
    pub adapters: Option<String>,
    /// `link_gbps`.
    pub link_gbps: Option<String>,
    /// `fabric`.
    pub fabric: Option<String>,
    /// `gdr`.
    pub gdr: Option<String>,
    /// `source`.
    pub source: Option<String>,
}

/// The columns a file may have.
pub const COLUMNS: [&str; 12] = [
    "id",
    "usd_per_gpu_hour",
    "price",
    "name",
    "gpu",
    "gpus_per_node",
    "nvlink_domain_gpus",
    "adapters",
    "link_gbps",
    "fabric",
    "gdr",
    "source",
];

impl RawRow {
    /// Sets a column by name; `false` for a column it does not know.
    pub fn set(&mut self, column: &str, value: String) -> bool {
        let v = Some(value);
        match column.trim().to_ascii_lowercase().as_str() {
            "id" => self.id = v,
            "usd_per_gpu_hour" | "price" => self.price = v,
            "name" => self.name = v,
            "gpu" => self.gpu = v,
            "gpus_per_node" => self.gpus_per_node = v,
            "nvlink_domain_gpus" => self.nvlink_domain_gpus = v,
            "adapters" => self.adapters = v,
            "link_gbps" => self.link_gbps = v,
            "fabric" => self.fabric = v,
            "gdr" => self.gdr = v,
            "source" => self.source = v,
            _ => return false,
        }
        true
    }

    /// The row checked: an id, a price that is a number of at least 0, and either no hardware (a catalog offer's
    /// price) or all of it (an offer of the user's own).
    pub fn check(&self, at: &str) -> Result<PriceRow, PriceError> {
        let fail = |column: &str, why: String| PriceError { at: at.to_string(), column: column.to_string(), why };
        let blank = |v: &Option<String>| v.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_string);
        let id = blank(&self.id).ok_or_else(|| fail("id", "missing: the offer's id".to_string()))?;
        if id.len() > 80 || !id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c)) {
            return Err(fail("id", format!("'{id}' is not an id (letters, digits, '-', '_' and '.', at most 80)")));
        }
        let number = |column: &str, v: &Option<String>, min: f64, max: f64| -> Result<Option<f64>, PriceError> {
            let Some(t) = blank(v) else { return Ok(None) };
            let x: f64 =
                t.trim_start_matches('$').parse().map_err(|_| fail(column, format!("'{t}' is not a number")))?;
            if !x.is_finite() || x < min || x > max {
                return Err(fail(column, format!("must be from {min} to {max} (got {t})")));
            }
            Ok(Some(x))
        };
        let price = number("usd_per_gpu_hour", &self.price, 0.0, super::MAX_USD_PER_GPU_HOUR)?;
        let hardware = [&self.gpu, &self.gpus_per_node, &self.adapters, &self.link_gbps, &self.fabric];
        if hardware.iter().all(|v| blank(v).is_none()) {
            return Ok(PriceRow { id, usd_per_gpu_hour: price, offer: None });
        }
        let need = |column: &str, v: &Option<String>| {
            blank(v).ok_or_else(|| {
                fail(
                    column,
                    "missing: an offer of your own needs gpu, gpus_per_node, adapters, link_gbps and fabric"
                        .to_string(),
                )
            })
        };
        let gpu = need("gpu", &self.gpu)?;
        if matches!(catalog::lookup(&gpu), Lookup::Unknown) {
            return Err(fail("gpu", format!("unknown GPU '{gpu}' (probe-cli estimate catalog lists them)")));
        }
        need("gpus_per_node", &self.gpus_per_node)?;
        need("adapters", &self.adapters)?;
        need("link_gbps", &self.link_gbps)?;
        let whole = |column: &str, v: &Option<String>, max: f64| -> Result<u32, PriceError> {
            let x = number(column, v, 1.0, max)?.unwrap_or(0.0);
            if x.fract() != 0.0 {
                return Err(fail(column, format!("must be a whole number (got {x})")));
            }
            // At most `max`, a few thousand: exact.
            Ok(x as u32)
        };
        let gpus_per_node =
            whole("gpus_per_node", &self.gpus_per_node, crate::scenario::limits::MAX_GPUS_PER_NODE as f64)?;
        let adapters = whole("adapters", &self.adapters, crate::scenario::limits::MAX_ADAPTERS_PER_NODE as f64)?;
        let domain = match blank(&self.nvlink_domain_gpus) {
            None => None,
            Some(_) => {
                let d = whole(
                    "nvlink_domain_gpus",
                    &self.nvlink_domain_gpus,
                    crate::scenario::limits::MAX_NVLINK_DOMAIN_GPUS as f64,
                )?;
                if d % gpus_per_node != 0 {
                    return Err(fail(
                        "nvlink_domain_gpus",
                        format!("{d} must be a multiple of gpus_per_node ({gpus_per_node}): a domain is whole nodes"),
                    ));
                }
                (d > gpus_per_node).then_some(d)
            }
        };
        let limits = (crate::scenario::limits::MIN_LINK_GBPS, crate::scenario::limits::MAX_LINK_GBPS);
        let link_gbps = number("link_gbps", &self.link_gbps, limits.0, limits.1)?.unwrap_or(limits.0);
        let f = need("fabric", &self.fabric)?;
        let fabric = Fabric::parse(&f).ok_or_else(|| {
            fail("fabric", format!("unknown fabric '{f}' (ib, roce, efa, efa-v2, efa-v3, tcpx, tcpxo, rdma, tcp)"))
        })?;
        let gdr = match blank(&self.gdr).map(|g| g.to_ascii_lowercase()) {
            None => fabric != Fabric::Tcp,
            Some(g) if ["true", "yes", "1"].contains(&g.as_str()) => true,
            Some(g) if ["false", "no", "0"].contains(&g.as_str()) => false,
            Some(g) => return Err(fail("gdr", format!("'{g}' is not true or false"))),
        };
        let name = blank(&self.name).unwrap_or_else(|| id.clone());
        Ok(PriceRow {
            id: id.clone(),
            usd_per_gpu_hour: price,
            offer: Some(NodeOffer {
                id,
                name,
                gpu,
                gpus_per_node,
                nvlink_domain_gpus: domain,
                adapters,
                link_gbps,
                fabric,
                gdr,
                source: blank(&self.source).unwrap_or_else(|| "your file".to_string()),
                source_note: "an offer you described".to_string(),
            }),
        })
    }
}

/// `ID=USD` as typed: `aws-p5.48xlarge=3.9`.
pub fn parse_price_arg(s: &str) -> Result<PriceRow, PriceError> {
    let Some((id, price)) = s.split_once('=') else {
        return Err(PriceError {
            at: "--price".to_string(),
            column: "usd_per_gpu_hour".to_string(),
            why: format!("'{s}' is not OFFER=USD (for example aws-p5.48xlarge=3.9)"),
        });
    };
    RawRow { id: Some(id.to_string()), price: Some(price.to_string()), ..RawRow::default() }.check("--price")
}

/// The most rows a prices text may have.
pub const MAX_ROWS: usize = 1000;

/// Refuses line `n` (0-based) when `rows` rows are read already.
fn too_many(rows: usize, n: usize) -> Result<(), PriceError> {
    if rows < MAX_ROWS {
        return Ok(());
    }
    Err(PriceError {
        at: format!("line {}", n + 1),
        column: "id".to_string(),
        why: format!("more than {MAX_ROWS} offers"),
    })
}

/// Splits one CSV line: commas, double-quoted fields with `""` for a quote.
fn fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(std::mem::take(&mut cur)),
            (c, _) => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// Reads prices and offers from CSV text with a header row (`id,usd_per_gpu_hour,...`), or `ID=USD` lines. Blank
/// lines and lines starting with `#` are skipped. At most [`MAX_ROWS`] rows.
pub fn parse_prices(text: &str) -> Result<Vec<PriceRow>, PriceError> {
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some((_, first)) = lines.next() else { return Ok(Vec::new()) };
    let mut rows = Vec::new();
    if !first.contains(',') && first.contains('=') {
        rows.push(parse_price_arg(first)?);
        for (n, line) in lines {
            too_many(rows.len(), n)?;
            let mut r = parse_price_arg(line).map_err(|e| PriceError { at: format!("line {}", n + 1), ..e })?;
            r.id = r.id.trim().to_string();
            rows.push(r);
        }
        return Ok(rows);
    }
    let header = fields(first);
    let mut probe = RawRow::default();
    for h in &header {
        if !probe.set(h, String::new()) {
            return Err(PriceError {
                at: "line 1".to_string(),
                column: h.trim().to_string(),
                why: format!("unknown column (the columns: {})", COLUMNS.join(", ")),
            });
        }
    }
    for (n, line) in lines {
        too_many(rows.len(), n)?;
        let mut raw = RawRow::default();
        for (h, v) in header.iter().zip(fields(line)) {
            raw.set(h, v);
        }
        rows.push(raw.check(&format!("line {}", n + 1))?);
    }
    Ok(rows)
}
