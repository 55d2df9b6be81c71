package io.jstark.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.Jstark;
import io.jstark.JstarkProver;
import io.jstark.protocol.ProofOptions;
import io.jstark.protocol.Statement;
import io.jstark.protocol.VerifyingKey;
import io.jstark.verifier.StarkVerifier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * The derived size bound against honest proofs of every example (preprocessed tables included) under
 * random options: every blowup the example can take, 1..255 queries (also more queries than a small tree
 * has leaves), every folding factor and final degree, every hash. Each honest proof fits the bound of its
 * exact key and verifies under it; where a key may accept any options, that key's bound covers it too.
 */
class ExampleProofBoundTest {
    @Provide
    Arbitrary<String> examples() {
        return Arbitraries.of("fib", "periodic", "vm", "mix");
    }

    @Provide
    Arbitrary<String> hashes() {
        return Arbitraries.of("sha256", "keccak256", "blake3");
    }

    @Property(tries = 16)
    void everyHonestProofOfAnExampleFitsItsBound(
            @ForAll("examples") String name,
            @ForAll @IntRange(min = 0, max = 3) int sizeStep,
            @ForAll @IntRange(min = 1, max = 5) int logBlowup,
            @ForAll @IntRange(min = 1, max = 255) int queries,
            @ForAll @IntRange(min = 1, max = 3) int logFolding,
            @ForAll @IntRange(min = 0, max = 10) int logFinal,
            @ForAll("hashes") String hash)
            throws Exception {
        Example example = Examples.byName(name);
        // the 2^16-row preprocessed tables of vm and mix: keep their LDEs small on a shared machine
        Assume.that(logBlowup <= 3 || name.equals("fib") || name.equals("periodic"));
        int logSize = Math.min(example.maxLogSize(), example.minLogSize() + sizeStep);
        ProofOptions options = new ProofOptions(logBlowup, queries, 1, logFolding, logFinal, hash, 0);
        try (Workload w = example.generate(logSize, 11);
                JstarkProver prover =
                        Jstark.prover(example.airs()).options(options).build()) {
            byte[] proof;
            try {
                proof = prover.prove(w.tables()).bytes();
            } catch (IllegalArgumentException refused) {
                // a shape these options cannot prove (the statement rules, or the planner first): nothing to bound
                Assume.that(false);
                return;
            }
            Statement expected = Statement.ofTraces(w.tables());
            VerifyingKey exact = VerifyingKey.read(prover.verifyingKey().toBytes(), example.airs());
            assertThat((long) proof.length)
                    .as("%s 2^%d %s", name, logSize, options)
                    .isLessThanOrEqualTo(StarkVerifier.maxProofBytes(exact, expected));
            assertThat(StarkVerifier.verify(exact, expected, proof).tables()).hasSize(w.size());
            if (example.airs().stream().allMatch(a -> a.preprocessedWidth() == 0)) {
                VerifyingKey any =
                        VerifyingKey.builder(example.airs()).acceptAtLeast(0).build();
                assertThat((long) proof.length).isLessThanOrEqualTo(StarkVerifier.maxProofBytes(any, expected));
                StarkVerifier.verify(any, expected, proof);
            }
        }
    }
}
