cute::layouts! {
    pub Tile = (4,8):(1,4);
    pub Tile = (8,4):(4,1);
}
fn main() {
    let _ = Tile;
}
