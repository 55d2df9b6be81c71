/** The example tables the CLI and the benchmarks prove. */
// qualified exports name the modules above this one, not yet built when this one compiles
@SuppressWarnings("module")
module io.jstark.examples {
    requires io.jstark;
    requires io.jstark.verifier;

    exports io.jstark.examples to
            io.jstark.cli,
            io.jstark.bench,
            io.jstark.cluster;
    exports io.jstark.examples.hash to
            io.jstark.bench;
}
