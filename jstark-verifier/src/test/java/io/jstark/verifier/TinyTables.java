package io.jstark.verifier;

import io.jstark.air.Air;
import io.jstark.air.AirBuilder;
import io.jstark.air.Bus;
import io.jstark.air.expr.Expr;
import io.jstark.protocol.ProofOptions;
import java.util.List;

/** The tiny tables the verifier's tests prove by hand: four rows, blowup 2, two queries, four grinding bits. */
final class TinyTables {
    /** Small enough to build by hand; claims no security, so the key requires none. */
    static final ProofOptions OPTIONS = new ProofOptions(1, 2, 4, 1, 0, "blake3", 0);

    static final int LOG_HEIGHT = 2;

    private TinyTables() {}

    /** x starts at the public input and counts up by one per row. */
    static Air counter() {
        AirBuilder b = Air.builder("counter");
        Expr.MainCell x = b.main("x");
        Expr.PublicInput start = b.publicInput("start");
        b.first("x starts at start", x.sub(start));
        b.transition("x counts up", x.next().sub(x).sub(1));
        return b.build();
    }

    /** The counter's rows from 5, public input 5. */
    static HandBuiltProof counterProof() {
        return HandBuiltProof.prove(counter(), new long[][] {{5}, {6}, {7}, {8}}, new long[] {5}, OPTIONS);
    }

    /** x equals the preprocessed column k = row + 1 (fixed height 2^2). */
    static Air stamped() {
        AirBuilder b = Air.builder("stamped").fixedHeight(LOG_HEIGHT);
        Expr.PreprocessedCell k = b.preprocessed("k", row -> row + 1);
        Expr.MainCell x = b.main("x");
        b.everyRow("x is k", x.sub(k));
        return b.build();
    }

    static HandBuiltProof stampedProof() {
        return HandBuiltProof.prove(stamped(), new long[][] {{1}, {2}, {3}, {4}}, new long[0], OPTIONS);
    }

    /** Sends v on a bus once per row and, when {@code receives}, receives it too (then its bus sum is zero). */
    static Air sender(boolean receives) {
        Bus bus = Bus.of("values", 1);
        AirBuilder b = Air.builder(receives ? "loopback" : "sender");
        Expr.MainCell v = b.main("v");
        b.send(bus, Expr.constant(1), v);
        if (receives) {
            b.receive(bus, Expr.constant(1), v);
        }
        return b.build();
    }

    static HandBuiltProof senderProof(boolean receives) {
        return HandBuiltProof.prove(sender(receives), new long[][] {{3}, {1}, {4}, {1}}, new long[0], OPTIONS);
    }

    /** Receives v from the sender's bus m times per row. */
    static Air receiver() {
        AirBuilder b = Air.builder("receiver");
        Expr.MainCell v = b.main("v");
        Expr.MainCell m = b.main("m");
        b.receive(Bus.of("values", 1), m, v);
        return b.build();
    }

    /**
     * Three tables of two heights: the counter (2^2 rows, no buses), a sender of 3 and 4 (2^1 rows) and a receiver
     * (2^2 rows) of 3 once and 4 {@code timesFour} times: the buses balance when that is once.
     */
    static HandBuiltProof threeTablesProof(int timesFour) {
        return HandBuiltProof.prove(
                List.of(
                        new HandBuiltProof.Table(counter(), new long[][] {{5}, {6}, {7}, {8}}, new long[] {5}),
                        new HandBuiltProof.Table(sender(false), new long[][] {{3}, {4}}, new long[0]),
                        new HandBuiltProof.Table(
                                receiver(), new long[][] {{3, 1}, {4, timesFour}, {5, 0}, {6, 0}}, new long[0])),
                OPTIONS);
    }
}
