//! Entry point of the page's wasm (Trunk builds this binary).

fn main() {
    web::start();
}
