//! A GPU's NVLink fabric from NVML: `nvmlDeviceGetGpuFabricInfo`, which nvml-wrapper 0.13 does not wrap, called
//! through the raw bindings nvml-wrapper already loaded (`Nvml::lib`). Besides `verbs.rs`, the only `unsafe` in the
//! workspace, allowed in this module alone: one FFI call into a struct this module owns.
//!
//! NVML (`nvml.h`, R525 and later): `nvmlReturn_t nvmlDeviceGetGpuFabricInfo(nvmlDevice_t device,
//! nvmlGpuFabricInfo_t *gpuFabricInfo)`, with `nvmlGpuFabricInfo_t { char clusterUuid[16]; nvmlReturn_t status;
//! unsigned int cliqueId; nvmlGpuFabricState_t state; }` and the states `NVML_GPU_FABRIC_STATE_NOT_SUPPORTED` (0),
//! `NOT_STARTED` (1), `IN_PROGRESS` (2), `COMPLETED` (3) (nvml-wrapper-sys 0.10 `bindings.rs`, the same header).
//! Drivers before R525 do not export the symbol: the library's field is then an error, and the GPU's fabric is
//! not known, never a panic.

#![allow(unsafe_code)]

use estimator_core::report::NvlinkFabric;
use nvml_wrapper::Device;
use nvml_wrapper_sys::bindings::nvmlGpuFabricInfo_t;

/// `NVML_SUCCESS`.
const NVML_SUCCESS: u32 = 0;
/// `NVML_ERROR_NOT_SUPPORTED`: the GPU has no multi-node NVLink.
const NVML_ERROR_NOT_SUPPORTED: u32 = 3;

/// The state's name in the report.
pub fn state_name(state: u8) -> String {
    match state {
        0 => "not-supported".to_string(),
        1 => "not-started".to_string(),
        2 => "in-progress".to_string(),
        3 => "completed".to_string(),
        other => format!("unknown ({other})"),
    }
}

/// NVML's return code in words, as NVML's `nvmlErrorString` names the common ones.
pub fn status_name(code: u32) -> String {
    match code {
        NVML_SUCCESS => "success".to_string(),
        NVML_ERROR_NOT_SUPPORTED => "not supported".to_string(),
        1 => "uninitialized".to_string(),
        2 => "invalid argument".to_string(),
        4 => "no permission".to_string(),
        7 => "timeout".to_string(),
        999 => "unknown error".to_string(),
        other => format!("NVML error {other}"),
    }
}

/// The fabric of one GPU: `Ok(None)` when the GPU or the driver has none, `Err` with NVML's words otherwise.
pub fn query(nvml: &nvml_wrapper::Nvml, device: &Device) -> Result<Option<NvlinkFabric>, String> {
    let lib = nvml.lib();
    let Ok(call) = lib.nvmlDeviceGetGpuFabricInfo.as_ref() else {
        return Ok(None);
    };
    let mut info = nvmlGpuFabricInfo_t { clusterUuid: [0; 16], status: 0, cliqueId: 0, state: 0 };
    // SAFETY: `device.handle()` is a live handle of this `Nvml` (the borrow keeps it so); `info` is an
    // `nvmlGpuFabricInfo_t` this function owns, which NVML fills and does not keep.
    let code = unsafe { call(device.handle(), &raw mut info) };
    match code {
        NVML_SUCCESS => Ok(Some(fabric(&info))),
        NVML_ERROR_NOT_SUPPORTED => Ok(None),
        other => Err(format!("nvmlDeviceGetGpuFabricInfo: {}", status_name(other))),
    }
}

/// The report's view of NVML's answer; the cluster UUID in its usual 8-4-4-4-12 form, unredacted (the report
/// redacts it).
fn fabric(info: &nvmlGpuFabricInfo_t) -> NvlinkFabric {
    let completed = info.state == 3;
    let hex: String = info.clusterUuid.iter().map(|b| format!("{b:02x}")).collect();
    let uuid = format!("{}-{}-{}-{}-{}", &hex[..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..]);
    NvlinkFabric {
        state: state_name(info.state),
        status: completed.then(|| status_name(info.status)),
        clique_id: completed.then_some(info.cliqueId),
        cluster_uuid: completed.then_some(uuid),
    }
}
