/** JMH benchmarks. */
module io.jstark.bench {
    requires io.jstark;
    requires io.jstark.crypto;
    requires io.jstark.examples;
    requires jmh.core;

    // JMH's generated runners reach the benchmark states by reflection
    opens io.jstark.bench.crypto to
            jmh.core;
    opens io.jstark.bench.math to
            jmh.core;
    opens io.jstark.bench.stark to
            jmh.core;
}
