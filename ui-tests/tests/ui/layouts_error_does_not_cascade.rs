// The first definition is wrong; the second uses it and reports nothing more; the stub type keeps
// `Tile.call` compiling.
cute::layouts! {
    pub Tile = (4,8):(1);
    pub Twice = Tile;
}
fn main() {
    let _ = Tile.call(3);
}
