//! libibverbs, loaded at run time (libloading) with its ABI types written out in `verbs_abi.rs`, so that the binary starts on a machine
//! without it (`ldd` does not list it) and says so in the report. Behind [`VerbsLibrary`] so that a captured tree
//! can stand in for the hardware.
//!
//! Only exported, ABI-stable `IBVERBS_1.x` symbols are looked up. `ibv_query_port` is a `static inline` wrapper in
//! the headers; the exported symbol of that name is the compat entry point, which fills the older, shorter port
//! struct, a prefix of `ibv_port_attr`, so a zeroed full struct is passed (rdma-core v44.0
//! `libibverbs/verbs.h` lines 2361-2384: the `ibv_query_port` macro calls the inline `___ibv_query_port`, which
//! falls back to the exported symbol with a `struct _compat_ibv_port_attr *`). The memory-registration smoke test (protection domain plus a registered buffer) proves that the
//! user-space stack works, not only that a device exists; the DMA-BUF probe is NCCL's own
//! (`ibv_reg_dmabuf_mr(pd, 0, 0, 0, -1, 0)`: EOPNOTSUPP or EPROTONOSUPPORT mean unsupported, EBADF supported).
#![allow(unsafe_code)]

use std::ffi::{CStr, OsString, c_int, c_void};

use super::verbs_abi::{IbvContext, IbvDevice, IbvDeviceAttr, IbvGidEntry, IbvMr, IbvPd, IbvPortAttr};
use estimator_core::report::{REDACTED, VerbsDevice, VerbsGid, VerbsPort};

/// Where RDMA device facts come from: libibverbs or a capture.
pub trait VerbsLibrary {
    /// The devices libibverbs lists, or why it could not be asked.
    fn query(&self) -> Result<Vec<VerbsDevice>, String>;
}

/// libibverbs on this machine; `lib_path` overrides `libibverbs.so.1` (the `PROBE_CLI_IBVERBS_LIB` variable).
pub struct LiveVerbs {
    /// The library to load instead of the default.
    pub lib_path: Option<OsString>,
    /// Keep GID values (they hold IP addresses and port GUIDs); else they read [`REDACTED`].
    pub identifiers: bool,
}

/// Devices from a capture (`/probe-cli/verbs.json`), or why there are none.
pub struct CapturedVerbs {
    /// The file's text, if the capture has it.
    pub text: Option<String>,
}

impl VerbsLibrary for CapturedVerbs {
    fn query(&self) -> Result<Vec<VerbsDevice>, String> {
        let text = self.text.as_deref().ok_or_else(|| {
            "not queried: a captured tree (--root) holds libibverbs' answer only when `probe-cli gather` wrote \
             /probe-cli/verbs.json"
                .to_string()
        })?;
        serde_json::from_str(text).map_err(|e| format!("/probe-cli/verbs.json is not a verbs device list: {e}"))
    }
}

type GetDeviceList = unsafe extern "C" fn(*mut c_int) -> *mut *mut IbvDevice;
type FreeDeviceList = unsafe extern "C" fn(*mut *mut IbvDevice);
type GetDeviceName = unsafe extern "C" fn(*mut IbvDevice) -> *const std::ffi::c_char;
type OpenDevice = unsafe extern "C" fn(*mut IbvDevice) -> *mut IbvContext;
type CloseDevice = unsafe extern "C" fn(*mut IbvContext) -> c_int;
type QueryDevice = unsafe extern "C" fn(*mut IbvContext, *mut IbvDeviceAttr) -> c_int;
type QueryPort = unsafe extern "C" fn(*mut IbvContext, u8, *mut c_void) -> c_int;
type AllocPd = unsafe extern "C" fn(*mut IbvContext) -> *mut IbvPd;
type DeallocPd = unsafe extern "C" fn(*mut IbvPd) -> c_int;
type RegMr = unsafe extern "C" fn(*mut IbvPd, *mut c_void, usize, c_int) -> *mut IbvMr;
type RegDmabufMr = unsafe extern "C" fn(*mut IbvPd, u64, usize, u64, c_int, c_int) -> *mut IbvMr;
type DeregMr = unsafe extern "C" fn(*mut IbvMr) -> c_int;
type QueryGidEx = unsafe extern "C" fn(*mut IbvContext, u32, u32, *mut IbvGidEntry, u32, usize) -> c_int;

/// `IBV_ACCESS_LOCAL_WRITE` (verbs.h `enum ibv_access_flags`).
const ACCESS_LOCAL_WRITE: c_int = 1;
/// The smoke test's buffer.
const SMOKE_BYTES: usize = 1 << 20;

struct Api {
    free_device_list: FreeDeviceList,
    get_device_name: GetDeviceName,
    open_device: OpenDevice,
    close_device: CloseDevice,
    query_device: QueryDevice,
    query_port: QueryPort,
    alloc_pd: AllocPd,
    dealloc_pd: DeallocPd,
    reg_mr: RegMr,
    dereg_mr: DeregMr,
    reg_dmabuf_mr: Option<RegDmabufMr>,
    query_gid_ex: Option<QueryGidEx>,
    identifiers: bool,
}

fn sym<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, String> {
    let cname = format!("{name}\0");
    // SAFETY: each type alias above matches the C prototype of the symbol it is used with (rdma-core verbs.h).
    unsafe { lib.get::<T>(cname.as_bytes()) }.map(|s| *s).map_err(|e| format!("{name}: {e}"))
}

fn errno() -> std::io::Error {
    std::io::Error::last_os_error()
}

/// Per-lane Gb/s of an `active_speed` bit (kernel `enum ib_port_speed`; XDR needs `active_speed_ex`, which the
/// compat struct lacks).
fn lane_gbps(speed: u8) -> Option<f64> {
    Some(match speed {
        1 => 2.5,
        2 => 5.0,
        4 | 8 => 10.0,
        16 => 14.0,
        32 => 25.0,
        64 => 50.0,
        128 => 100.0,
        _ => return None,
    })
}

/// Lanes of an `active_width` bit.
fn lanes(width: u8) -> Option<f64> {
    Some(match width {
        1 => 1.0,
        2 => 4.0,
        4 => 8.0,
        8 => 12.0,
        16 => 2.0,
        _ => return None,
    })
}

fn state_name(state: u32) -> String {
    match state {
        0 => "NOP".into(),
        1 => "DOWN".into(),
        2 => "INIT".into(),
        3 => "ARMED".into(),
        4 => "ACTIVE".into(),
        5 => "ACTIVE_DEFER".into(),
        n => format!("UNKNOWN ({n})"),
    }
}

impl VerbsLibrary for LiveVerbs {
    fn query(&self) -> Result<Vec<VerbsDevice>, String> {
        let path = self.lib_path.clone().unwrap_or_else(|| "libibverbs.so.1".into());
        // SAFETY: loading libibverbs runs its constructors, which only set up its provider table.
        let lib = unsafe { libloading::Library::new(&path) }.map_err(|e| e.to_string())?;
        let get_device_list: GetDeviceList = sym(&lib, "ibv_get_device_list")?;
        let api = Api {
            free_device_list: sym(&lib, "ibv_free_device_list")?,
            get_device_name: sym(&lib, "ibv_get_device_name")?,
            open_device: sym(&lib, "ibv_open_device")?,
            close_device: sym(&lib, "ibv_close_device")?,
            query_device: sym(&lib, "ibv_query_device")?,
            query_port: sym(&lib, "ibv_query_port")?,
            alloc_pd: sym(&lib, "ibv_alloc_pd")?,
            dealloc_pd: sym(&lib, "ibv_dealloc_pd")?,
            reg_mr: sym(&lib, "ibv_reg_mr")?,
            dereg_mr: sym(&lib, "ibv_dereg_mr")?,
            // rdma-core v34 and later (IBVERBS_1.12).
            reg_dmabuf_mr: sym(&lib, "ibv_reg_dmabuf_mr").ok(),
            // rdma-core v32 and later (IBVERBS_1.11): what the static inline ibv_query_gid_ex calls.
            query_gid_ex: sym(&lib, "_ibv_query_gid_ex").ok(),
            identifiers: self.identifiers,
        };
        let mut n: c_int = 0;
        // SAFETY: `n` is a valid out-pointer; the list is freed below with ibv_free_device_list.
        let list = unsafe { get_device_list(&mut n) };
        if list.is_null() {
            let e = errno();
            let hint = if e.raw_os_error() == Some(38) { " (no RDMA support in this kernel)" } else { "" };
            return Err(format!("ibv_get_device_list: {e}{hint}"));
        }
        let count = usize::try_from(n).unwrap_or(0);
        let mut devices = Vec::with_capacity(count);
        for i in 0..count {
            // SAFETY: the list holds `n` valid device pointers.
            let dev = unsafe { *list.add(i) };
            devices.push(query_device(&api, dev));
        }
        // SAFETY: `list` came from ibv_get_device_list and is freed once.
        unsafe { (api.free_device_list)(list) };
        Ok(devices)
    }
}

fn query_device(api: &Api, dev: *mut IbvDevice) -> VerbsDevice {
    // SAFETY: `dev` is a valid device from the list; the name is a NUL-terminated string it owns.
    let name = unsafe {
        let p = (api.get_device_name)(dev);
        if p.is_null() { "?".to_string() } else { CStr::from_ptr(p).to_string_lossy().into_owned() }
    };
    let mut out = VerbsDevice { name, dmabuf: "unknown".into(), ..Default::default() };
    // SAFETY: opening a listed device; closed below.
    let ctx = unsafe { (api.open_device)(dev) };
    if ctx.is_null() {
        out.memory_registration = format!("ibv_open_device failed: {} (is /dev/infiniband readable?)", errno());
        return out;
    }
    let mut attr = IbvDeviceAttr::ZERO;
    // SAFETY: `ctx` is open and `attr` is a valid out-pointer of the right type.
    let ports = if unsafe { (api.query_device)(ctx, &mut attr) } == 0 { attr.phys_port_cnt } else { 0 };
    for p in 1..=ports {
        // The compat ibv_query_port writes the older, shorter struct, a prefix of this zeroed one.
        let mut pa = IbvPortAttr::ZERO;
        // SAFETY: `ctx` is open and `pa` is larger than what the call writes.
        if unsafe { (api.query_port)(ctx, p, (&mut pa as *mut IbvPortAttr).cast()) } != 0 {
            continue;
        }
        let rate = lane_gbps(pa.active_speed).zip(lanes(pa.active_width)).map(|(s, w)| s * w);
        let gid_table_len = u32::try_from(pa.gid_tbl_len).unwrap_or(0);
        let gids = api
            .query_gid_ex
            .map_or_else(Vec::new, |q| query_gids(q, ctx, u32::from(p), gid_table_len, api.identifiers));
        out.ports.push(VerbsPort {
            port: u32::from(p),
            state: state_name(pa.state),
            link_layer: match pa.link_layer {
                1 => "InfiniBand".into(),
                2 => "Ethernet".into(),
                _ => "Unspecified".into(),
            },
            rate_gbps: rate,
            gid_table_len,
            gids,
        });
    }
    // SAFETY: `ctx` is open; the protection domain is deallocated below.
    let pd = unsafe { (api.alloc_pd)(ctx) };
    if pd.is_null() {
        out.memory_registration = format!("ibv_alloc_pd failed: {}", errno());
    } else {
        let mut buf = vec![0u8; SMOKE_BYTES];
        // SAFETY: `buf` outlives the registration, which is deregistered right away.
        let mr = unsafe { (api.reg_mr)(pd, buf.as_mut_ptr().cast(), buf.len(), ACCESS_LOCAL_WRITE) };
        if mr.is_null() {
            let e = errno();
            let hint = if e.raw_os_error() == Some(12) { " (raise the locked-memory limit: ulimit -l)" } else { "" };
            out.memory_registration = format!("ibv_reg_mr failed: {e}{hint}");
        } else {
            // SAFETY: `mr` came from ibv_reg_mr.
            unsafe { (api.dereg_mr)(mr) };
            out.memory_registration = "ok".into();
        }
        out.dmabuf = match api.reg_dmabuf_mr {
            None => "not-supported".into(),
            Some(reg) => {
                // SAFETY: NCCL's probe: fd -1 never maps anything; a non-null result is deregistered.
                let mr = unsafe { reg(pd, 0, 0, 0, -1, 0) };
                if mr.is_null() {
                    match errno().raw_os_error() {
                        Some(95 | 93) => "not-supported".into(),
                        Some(9) => "supported".into(),
                        _ => "unknown".into(),
                    }
                } else {
                    // SAFETY: `mr` came from ibv_reg_dmabuf_mr.
                    unsafe { (api.dereg_mr)(mr) };
                    "supported".into()
                }
            }
        };
        // SAFETY: `pd` came from ibv_alloc_pd and holds no registrations now.
        unsafe { (api.dealloc_pd)(pd) };
    }
    // SAFETY: `ctx` came from ibv_open_device.
    unsafe { (api.close_device)(ctx) };
    out
}

/// Writes [`REDACTED`] over every GID value (they hold IP addresses and port GUIDs).
pub fn redact_gids(devices: &mut [VerbsDevice]) {
    for g in devices.iter_mut().flat_map(|d| d.ports.iter_mut()).flat_map(|p| p.gids.iter_mut()) {
        g.gid = REDACTED.to_string();
    }
}

/// The populated entries of a port's GID table (at most 256 looked at). Empty entries answer ENODATA.
fn query_gids(q: QueryGidEx, ctx: *mut IbvContext, port: u32, len: u32, identifiers: bool) -> Vec<VerbsGid> {
    let mut out = Vec::new();
    for index in 0..len.min(256) {
        let mut e = IbvGidEntry::ZERO;
        // SAFETY: `ctx` is open, `e` is a valid out-pointer and its size is passed, as the inline wrapper does.
        if unsafe { q(ctx, port, index, &mut e, 0, std::mem::size_of::<IbvGidEntry>()) } != 0 {
            continue;
        }
        let raw = e.gid.raw;
        if raw.iter().all(|b| *b == 0) {
            continue;
        }
        let gid = if identifiers {
            raw.chunks(2).map(|c| format!("{:02x}{:02x}", c[0], c[1])).collect::<Vec<_>>().join(":")
        } else {
            REDACTED.to_string()
        };
        // verbs.h `enum ibv_gid_type`: IBV_GID_TYPE_IB, IBV_GID_TYPE_ROCE_V1, IBV_GID_TYPE_ROCE_V2.
        let gid_type = match e.gid_type {
            0 => "IB".to_string(),
            1 => "RoCE v1".to_string(),
            2 => "RoCE v2".to_string(),
            n => format!("unknown ({n})"),
        };
        out.push(VerbsGid { index, gid_type, gid });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_and_widths_decode_as_the_kernel_encodes_them() {
        assert_eq!(lane_gbps(128).zip(lanes(2)).map(|(s, w)| s * w), Some(400.0));
        assert_eq!(lane_gbps(64).zip(lanes(16)).map(|(s, w)| s * w), Some(100.0));
        assert_eq!(lane_gbps(3), None);
        assert_eq!(state_name(4), "ACTIVE");
    }

    #[test]
    fn a_missing_library_is_an_answer_not_a_crash() {
        let e = LiveVerbs { lib_path: Some("/nonexistent/libibverbs.so.1".into()), identifiers: false }
            .query()
            .expect_err("an error");
        assert!(e.contains("libibverbs.so.1"), "{e}");
    }

    #[test]
    fn this_machine_answers_without_a_panic() {
        // With libibverbs installed but no RDMA in the kernel, the list call fails with ENOSYS; with hardware it
        // lists devices. Either way: an answer.
        match (LiveVerbs { lib_path: None, identifiers: false }).query() {
            Ok(devices) => assert!(devices.iter().all(|d| !d.name.is_empty())),
            Err(e) => assert!(!e.is_empty()),
        }
    }
}
