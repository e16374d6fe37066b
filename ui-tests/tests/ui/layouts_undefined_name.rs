cute::layouts! {
    pub Tile = (4,8):(1,4);
    pub Other = Tlie;
}
fn main() {
    let _ = Tile;
}
