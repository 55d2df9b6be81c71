package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A body that parses but does not have the shape the tables' definitions give is MALFORMED, naming the table where
 * the part is one table's: checked before the transcript is replayed (bus sums, preprocessed openings), at the
 * out-of-domain frames, and at each phase opening.
 */
class ShapeRejectionTest {
    @Test
    void aMissingBusSumOfATableWithBusesIsMalformedNamingTheTable() {
        HandBuiltProof built = TinyTables.senderProof(true);
        Proof p = built.proof();
        List<Ext3> none = new ArrayList<>();
        none.add(null);

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.busSums = none));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.table()).isEqualTo("loopback");
        assertThat(e.getMessage()).contains("bus sum missing");
    }

    @Test
    void aBusSumOfATableWithoutBusesIsMalformedNamingTheTable() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.busSums = List.of(Ext3.ONE)));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("unexpected bus sum");
    }

    @Test
    void aMissingPreprocessedOpeningIsMalformedNamingTheTable() {
        HandBuiltProof built = TinyTables.stampedProof();
        Proof p = built.proof();
        List<Proof.TreeOpening> none = new ArrayList<>();
        none.add(null);

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.preprocessed = none));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.table()).isEqualTo("stamped");
    }

    @Test
    void aFrameOfTheWrongWidthIsMalformedNamingTheTable() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();
        OodFrame f = p.frames().getFirst();
        Ext3[] wider = Arrays.copyOf(f.mainAtZ(), f.mainAtZ().length + 1);
        wider[wider.length - 1] = Ext3.ZERO;
        OodFrame changed = new OodFrame(
                f.preprocessedAtZ(),
                wider,
                f.auxAtZ(),
                f.preprocessedAtZNext(),
                f.mainAtZNext(),
                f.auxAtZNext(),
                f.compositionAtZ());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.frames = List.of(changed)));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("out-of-domain frame");
    }

    @Test
    void aPhaseOpeningMissingABlockIsMalformedNamingTheTable() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();
        long[][] blocks = p.main().blocks().getFirst();
        Proof.PhaseOpening fewer = new Proof.PhaseOpening(
                List.<long[][]>of(Arrays.copyOf(blocks, blocks.length - 1)),
                p.main().siblings());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.main = fewer));

        assertThat(e.reason()).isEqualTo(Reason.MALFORMED);
        assertThat(e.table()).isEqualTo("counter");
        assertThat(e.getMessage()).contains("main opening has " + (blocks.length - 1) + " blocks");
    }

    private static ProofRejectedException reject(HandBuiltProof built, Proof changed) {
        return Rejections.of(built.key(), built.statement(), ProofFormat.write(changed));
    }
}
