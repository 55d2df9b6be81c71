package io.jstark.verifier;

import io.jstark.fri.FriProof;
import io.jstark.math.field.Ext3;
import io.jstark.math.field.Goldilocks;
import io.jstark.protocol.OodFrame;
import io.jstark.protocol.Proof;
import io.jstark.protocol.ProofOptions;
import java.util.List;
import java.util.function.Consumer;

/** A proof's fields, open to change: a test sets the one it tampers with and builds the proof back. */
final class ProofEdit {
    ProofOptions options;
    List<Proof.TableHeader> tables;
    byte[] mainRoot;
    byte[] auxRoot;
    List<Ext3> busSums;
    byte[] compositionRoot;
    List<OodFrame> frames;
    FriProof fri;
    long powNonce;
    List<Proof.TreeOpening> preprocessed;
    Proof.PhaseOpening main;
    Proof.PhaseOpening aux;
    Proof.PhaseOpening composition;

    private ProofEdit(Proof p) {
        options = p.options();
        tables = p.tables();
        mainRoot = p.mainRoot();
        auxRoot = p.auxRoot();
        busSums = p.busSums();
        compositionRoot = p.compositionRoot();
        frames = p.frames();
        fri = p.fri();
        powNonce = p.powNonce();
        preprocessed = p.preprocessed();
        main = p.main();
        aux = p.aux();
        composition = p.composition();
    }

    /** {@return {@code proof} with what {@code change} sets} */
    static Proof of(Proof proof, Consumer<ProofEdit> change) {
        ProofEdit edit = new ProofEdit(proof);
        change.accept(edit);
        return new Proof(
                edit.options,
                edit.tables,
                edit.mainRoot,
                edit.auxRoot,
                edit.busSums,
                edit.compositionRoot,
                edit.frames,
                edit.fri,
                edit.powNonce,
                edit.preprocessed,
                edit.main,
                edit.aux,
                edit.composition);
    }

    /** {@return a copy of {@code values} with its first element plus one (still a field element)} */
    static long[][] firstElementChanged(long[][] values) {
        long[][] out = new long[values.length][];
        for (int i = 0; i < values.length; i++) {
            out[i] = values[i].clone();
        }
        out[0][0] = Goldilocks.add(out[0][0], 1);
        return out;
    }
}
