package io.jstark.verifier;

import static org.assertj.core.api.Assertions.assertThat;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofFormat;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.protocol.ProofRejectedException.Reason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The checks after the table headers, each reached by a hand-built proof ({@link HandBuiltProof}) that is valid up to
 * the one part a test changes: the constraints at the out-of-domain point, the grinding nonce, the Merkle openings,
 * FRI, and last the bus balance.
 */
class CryptographicRejectionTest {
    @Test
    void handBuiltProofsOfEachTinyTableAreAccepted() throws ProofRejectedException {
        for (HandBuiltProof built :
                List.of(TinyTables.counterProof(), TinyTables.stampedProof(), TinyTables.senderProof(true))) {
            VerifiedStatement verified = StarkVerifier.verify(built.key(), built.statement(), built.bytes());
            assertThat(verified.tables()).singleElement().satisfies(t -> {
                assertThat(t.name()).isEqualTo(built.air().name());
                assertThat(t.logHeight()).isEqualTo(TinyTables.LOG_HEIGHT);
            });
            assertThat(StarkVerifier.verifyAndDescribe(built.key(), built.bytes())
                            .form())
                    .isEqualTo(VerifiedStatement.Form.DESCRIBED);
        }
    }

    @Test
    void aFrameValueOtherThanTheTracesIsRejectedOutOfDomainNamingTheTable() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();
        OodFrame f = p.frames().getFirst();
        Ext3[] main = f.mainAtZNext().clone();
        main[0] = main[0].add(1);
        OodFrame changed = new OodFrame(
                f.preprocessedAtZ(),
                f.mainAtZ(),
                f.auxAtZ(),
                f.preprocessedAtZNext(),
                main,
                f.auxAtZNext(),
                f.compositionAtZ());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.frames = List.of(changed)));

        assertThat(e.reason()).isEqualTo(Reason.OUT_OF_DOMAIN);
        assertThat(e.table()).isEqualTo("counter");
    }

    @Test
    void aNonceWithoutTheLeadingZeroBitsIsRejectedForGrinding() {
        HandBuiltProof built = TinyTables.counterProof();
        long invalid = 0;
        while (built.beforeGrinding().copy().verifyGrinding(TinyTables.OPTIONS.grindingBits(), invalid)) {
            invalid++;
        }

        ProofRejectedException e = reject(built, built.proof().withPowNonce(invalid));

        assertThat(e.reason()).isEqualTo(Reason.GRINDING);
        assertThat(e.getMessage()).contains(TinyTables.OPTIONS.grindingBits() + " leading zero bits");
    }

    @Test
    void anyNonceWithTheLeadingZeroBitsPassesGrinding() throws ProofRejectedException {
        HandBuiltProof built = TinyTables.counterProof();
        long honest = built.proof().powNonce();
        long other = honest + 1;
        while (!built.beforeGrinding().copy().verifyGrinding(TinyTables.OPTIONS.grindingBits(), other)) {
            other++;
        }
        // another nonce draws other queries, whose openings the proof lacks: past grinding it fails at an opening (or,
        // drawing queries the proof opens, it is accepted)
        Proof withOther = built.proof().withPowNonce(other);
        try {
            StarkVerifier.verify(built.key(), built.statement(), ProofFormat.write(withOther));
        } catch (ProofRejectedException e) {
            assertThat(e.reason()).isIn(Reason.MALFORMED, Reason.MERKLE, Reason.FRI);
        }
    }

    @Test
    void aChangedMainValueIsRejectedByTheMainPhaseMerkleCheck() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.main = changedFirstElement(p.main())));

        assertThat(e.reason()).isEqualTo(Reason.MERKLE);
        assertThat(e.getMessage()).startsWith("main phase opening rejected");
    }

    @Test
    void aChangedCompositionValueIsRejectedByTheCompositionPhaseMerkleCheck() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();

        ProofRejectedException e =
                reject(built, ProofEdit.of(p, edit -> edit.composition = changedFirstElement(p.composition())));

        assertThat(e.reason()).isEqualTo(Reason.MERKLE);
        assertThat(e.getMessage()).startsWith("composition phase opening rejected");
    }

    @Test
    void aChangedPreprocessedValueIsRejectedByItsMerkleCheckNamingTheTable() {
        HandBuiltProof built = TinyTables.stampedProof();
        Proof p = built.proof();
        Proof.TreeOpening o = p.preprocessed().getFirst();
        Proof.TreeOpening changed = new Proof.TreeOpening(ProofEdit.firstElementChanged(o.leafValues()), o.siblings());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.preprocessed = List.of(changed)));

        assertThat(e.reason()).isEqualTo(Reason.MERKLE);
        assertThat(e.table()).isEqualTo("stamped");
        assertThat(e.getMessage()).contains("preprocessed opening rejected");
    }

    @Test
    void aFinalPolynomialOfTheWrongLengthIsRejectedByFrisCommitPhase() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();
        FriProof fri = p.fri();
        Ext3[] shorter = new Ext3[fri.finalCoefficients().length - 1];

        FriProof changed = new FriProof(fri.layerRoots(), shorter, fri.openings());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.fri = changed));

        assertThat(e.reason()).isEqualTo(Reason.FRI);
        assertThat(e.getMessage()).contains("final FRI coefficients");
    }

    @Test
    void aChangedFriLayerValueIsRejectedByFrisQueryPhase() {
        HandBuiltProof built = TinyTables.counterProof();
        Proof p = built.proof();
        FriProof fri = p.fri();
        assertThat(fri.openings()).as("a committed FRI layer").isNotEmpty();
        List<FriProof.LayerOpening> layers = new ArrayList<>(fri.openings());
        FriProof.LayerOpening first = layers.getFirst();
        layers.set(0, new FriProof.LayerOpening(ProofEdit.firstElementChanged(first.leafValues()), first.siblings()));
        FriProof changed = new FriProof(fri.layerRoots(), fri.finalCoefficients(), layers);

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.fri = changed));

        assertThat(e.reason()).isEqualTo(Reason.FRI);
    }

    @Test
    void aValidProofWhoseTablesSendWhatNoTableReceivesIsRejectedForTheBusBalance() {
        HandBuiltProof built = TinyTables.senderProof(false);
        assertThat(built.proof().busSums().getFirst().isZero()).isFalse();

        ProofRejectedException e = Rejections.of(built.key(), built.statement(), built.bytes());

        assertThat(e.reason()).isEqualTo(Reason.BUS_BALANCE);
        assertThat(e.getMessage()).contains("do not cancel");
    }

    @Test
    void aProofOfTablesOfTwoHeightsWhoseBusesBalanceIsAccepted() throws ProofRejectedException {
        HandBuiltProof built = TinyTables.threeTablesProof(1);
        assertThat(built.proof().tables())
                .extracting(Proof.TableHeader::logHeight)
                .containsExactly(2, 1, 2);

        VerifiedStatement verified = StarkVerifier.verify(built.key(), built.statement(), built.bytes());

        assertThat(verified.tables())
                .extracting(VerifiedStatement.Table::name)
                .containsExactly("counter", "sender", "receiver");
    }

    @Test
    void aValidProofOfTablesWhoseBusContributionsDoNotCancelIsRejectedForTheBusBalance() {
        HandBuiltProof built = TinyTables.threeTablesProof(2);

        ProofRejectedException e = Rejections.of(built.key(), built.statement(), built.bytes());

        assertThat(e.reason()).isEqualTo(Reason.BUS_BALANCE);
        assertThat(e.table()).isNull();
    }

    @Test
    void aChangedValueOfTheShorterTableIsRejectedByTheCombinedPhaseTree() {
        HandBuiltProof built = TinyTables.threeTablesProof(1);
        Proof p = built.proof();
        List<long[][]> blocks = new ArrayList<>(p.main().blocks());
        blocks.set(1, ProofEdit.firstElementChanged(blocks.get(1)));
        Proof.PhaseOpening changed = new Proof.PhaseOpening(blocks, p.main().siblings());

        ProofRejectedException e = reject(built, ProofEdit.of(p, edit -> edit.main = changed));

        assertThat(e.reason()).isEqualTo(Reason.MERKLE);
        assertThat(e.getMessage()).startsWith("main phase opening rejected");
    }

    private static ProofRejectedException reject(HandBuiltProof built, Proof tampered) {
        return Rejections.of(built.key(), built.statement(), ProofFormat.write(tampered));
    }

    private static Proof.PhaseOpening changedFirstElement(Proof.PhaseOpening phase) {
        return new Proof.PhaseOpening(
                List.<long[][]>of(ProofEdit.firstElementChanged(phase.blocks().getFirst())), phase.siblings());
    }
}
