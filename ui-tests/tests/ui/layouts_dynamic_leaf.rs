cute::layouts! {
    pub Tile = (4,{8}):(1,4);
}
fn main() {
    let _ = Tile;
}
