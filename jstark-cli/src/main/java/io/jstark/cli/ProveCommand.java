package io.jstark.cli;

import io.jstark.examples.Example;
import io.jstark.examples.Workload;
import io.jstark.instrument.SpanRecorder;
import io.jstark.instrument.Spans;
import io.jstark.math.parallel.WorkerPool;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Security;
import io.jstark.prover.ProvingKey;
import io.jstark.prover.StarkProver;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code jstark prove}: proves an example workload and writes the proof file. */
@Command(name = "prove", mixinStandardHelpOptions = true, description = "Prove an example workload and write the proof.")
public final class ProveCommand implements Callable<Integer> {
    @Mixin
    ExampleOptions example;

    @Mixin
    ProofOptionsMixin proofOptions;

    @Mixin
    RunOptions run;

    @Option(names = {"-o", "--output"}, description = "Proof file (default: ${DEFAULT-VALUE}).", defaultValue = "proof.bin")
    Path output;

    @Override
    public Integer call() throws Exception {
        ProofRun result = ProofRun.execute(example, proofOptions.options(), run, System.out);
        Files.write(output, result.bytes());
        System.out.printf("proof written to %s (%,d bytes)%n", output, result.bytes().length);
        return 0;
    }

    /** One proof of one workload, measured. */
    record ProofRun(byte[] bytes, Proof proof, long proveNanos, SpanRecorder recorder) {
        static ProofRun execute(ExampleOptions exampleOptions, ProofOptions options, RunOptions run, PrintStream out) {
            Example example = exampleOptions.resolve();
            int logSize = exampleOptions.logSize(example);
            SpanRecorder recorder = new SpanRecorder();
            WorkerPool pool = run.pool();
            try (Workload workload = example.generate(logSize, exampleOptions.seed);
                    ProvingKey key = ProvingKey.of(example.airs())) {
                out.printf("proving '%s' (%s = %d): %d tables, %,d main cells; %s%n", example.name(), example.sizeParameter(), logSize,
                        workload.size(), workload.mainCells(), options);
                int logLargest = 0;
                for (var t : workload.tables()) {
                    logLargest = Math.max(logLargest, t.logHeight() + options.logBlowup());
                }
                Security.Report security = Security.require(options, logLargest);
                out.printf("conjectured security: %d bits (limited by %s)%n", security.conjecturedBits(), security.limitingTerm());
                StarkProver prover = new StarkProver(key, options, run.settings(pool).withProgress(new ConsoleProgress(System.err)));
                Spans.start(recorder);
                long start = System.nanoTime();
                Proof proof;
                try {
                    proof = prover.prove(workload.tables());
                } finally {
                    Spans.stop(recorder);
                }
                long nanos = System.nanoTime() - start;
                byte[] bytes = ProofFormat.write(proof);
                out.printf("proved in %.3f s%n", nanos / 1e9);
                if (run.report) {
                    out.println();
                    out.print(Reports.timing(recorder, workload));
                }
                return new ProofRun(bytes, proof, nanos, recorder);
            } finally {
                if (pool != WorkerPool.common()) {
                    pool.close();
                }
            }
        }
    }
}
