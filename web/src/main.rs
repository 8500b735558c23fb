//! Entry point of the page's wasm (Trunk builds this binary).

// talc instead of the standard library's dlmalloc: smaller in the first load's wasm (its own benchmarks:
// github.com/SFBdragon/talc, BENCHMARKS_WASM.md), and the page allocates little (strings per recompute).
// The page is single-threaded, which talc's wasm allocator assumes (no `atomics` target feature).
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

fn main() {
    web::start();
}
