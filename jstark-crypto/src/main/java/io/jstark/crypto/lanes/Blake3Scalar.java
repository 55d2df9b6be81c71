package io.jstark.crypto.lanes;

/**
 * BLAKE3 one message at a time, from the words of the one-lane layout: the scalar kernel of BLAKE3 (about
 * twice as fast as going through bytes and BouncyCastle's digest, measured in CryptoThroughput). The
 * compression keeps the state and message words in locals; the message permutation between rounds is a
 * renaming of them.
 */
final class Blake3Scalar extends Blake3Kernel {
    static final Blake3Scalar INSTANCE = new Blake3Scalar();

    private Blake3Scalar() {
        super(1);
    }

    @Override
    public String description() {
        return "blake3: scalar, one message at a time (32-bit words, no vector lanes)";
    }

    @Override
    void pairsToBlocks(int[] children, int off, int groups, int[] blocks) {
        throw new IllegalStateException("one lane: the children are the blocks already");
    }

    @Override
    void compressGroups(
            int[] cv,
            int cvStart,
            int cvStride,
            int[] m,
            int mStart,
            int mStride,
            int[] out,
            int outStart,
            int outStride,
            int groups,
            int counter,
            int blockLen,
            int flags) {
        for (int group = 0; group < groups; group++) {
            int cvOff = cvStart + group * cvStride;
            int mOff = mStart + group * mStride;
            int outOff = outStart + group * outStride;
            int m0 = m[mOff];
            int m1 = m[mOff + 1];
            int m2 = m[mOff + 2];
            int m3 = m[mOff + 3];
            int m4 = m[mOff + 4];
            int m5 = m[mOff + 5];
            int m6 = m[mOff + 6];
            int m7 = m[mOff + 7];
            int m8 = m[mOff + 8];
            int m9 = m[mOff + 9];
            int m10 = m[mOff + 10];
            int m11 = m[mOff + 11];
            int m12 = m[mOff + 12];
            int m13 = m[mOff + 13];
            int m14 = m[mOff + 14];
            int m15 = m[mOff + 15];
            int v0 = cv[cvOff];
            int v1 = cv[cvOff + 1];
            int v2 = cv[cvOff + 2];
            int v3 = cv[cvOff + 3];
            int v4 = cv[cvOff + 4];
            int v5 = cv[cvOff + 5];
            int v6 = cv[cvOff + 6];
            int v7 = cv[cvOff + 7];
            int v8 = IV[0];
            int v9 = IV[1];
            int v10 = IV[2];
            int v11 = IV[3];
            int v12 = counter;
            int v13 = 0;
            int v14 = blockLen;
            int v15 = flags;
            for (int round = 0; round < ROUNDS; round++) {
                // columns
                v0 += v4 + m0;
                v12 = Integer.rotateRight(v12 ^ v0, 16);
                v8 += v12;
                v4 = Integer.rotateRight(v4 ^ v8, 12);
                v0 += v4 + m1;
                v12 = Integer.rotateRight(v12 ^ v0, 8);
                v8 += v12;
                v4 = Integer.rotateRight(v4 ^ v8, 7);
                v1 += v5 + m2;
                v13 = Integer.rotateRight(v13 ^ v1, 16);
                v9 += v13;
                v5 = Integer.rotateRight(v5 ^ v9, 12);
                v1 += v5 + m3;
                v13 = Integer.rotateRight(v13 ^ v1, 8);
                v9 += v13;
                v5 = Integer.rotateRight(v5 ^ v9, 7);
                v2 += v6 + m4;
                v14 = Integer.rotateRight(v14 ^ v2, 16);
                v10 += v14;
                v6 = Integer.rotateRight(v6 ^ v10, 12);
                v2 += v6 + m5;
                v14 = Integer.rotateRight(v14 ^ v2, 8);
                v10 += v14;
                v6 = Integer.rotateRight(v6 ^ v10, 7);
                v3 += v7 + m6;
                v15 = Integer.rotateRight(v15 ^ v3, 16);
                v11 += v15;
                v7 = Integer.rotateRight(v7 ^ v11, 12);
                v3 += v7 + m7;
                v15 = Integer.rotateRight(v15 ^ v3, 8);
                v11 += v15;
                v7 = Integer.rotateRight(v7 ^ v11, 7);
                // diagonals
                v0 += v5 + m8;
                v15 = Integer.rotateRight(v15 ^ v0, 16);
                v10 += v15;
                v5 = Integer.rotateRight(v5 ^ v10, 12);
                v0 += v5 + m9;
                v15 = Integer.rotateRight(v15 ^ v0, 8);
                v10 += v15;
                v5 = Integer.rotateRight(v5 ^ v10, 7);
                v1 += v6 + m10;
                v12 = Integer.rotateRight(v12 ^ v1, 16);
                v11 += v12;
                v6 = Integer.rotateRight(v6 ^ v11, 12);
                v1 += v6 + m11;
                v12 = Integer.rotateRight(v12 ^ v1, 8);
                v11 += v12;
                v6 = Integer.rotateRight(v6 ^ v11, 7);
                v2 += v7 + m12;
                v13 = Integer.rotateRight(v13 ^ v2, 16);
                v8 += v13;
                v7 = Integer.rotateRight(v7 ^ v8, 12);
                v2 += v7 + m13;
                v13 = Integer.rotateRight(v13 ^ v2, 8);
                v8 += v13;
                v7 = Integer.rotateRight(v7 ^ v8, 7);
                v3 += v4 + m14;
                v14 = Integer.rotateRight(v14 ^ v3, 16);
                v9 += v14;
                v4 = Integer.rotateRight(v4 ^ v9, 12);
                v3 += v4 + m15;
                v14 = Integer.rotateRight(v14 ^ v3, 8);
                v9 += v14;
                v4 = Integer.rotateRight(v4 ^ v9, 7);
                // the message permutation, as a renaming of the message words
                int t0 = m0;
                m0 = m2;
                m2 = m3;
                m3 = m10;
                m10 = m12;
                m12 = m9;
                m9 = m11;
                m11 = m5;
                m5 = t0;
                int t1 = m1;
                m1 = m6;
                m6 = m4;
                m4 = m7;
                m7 = m13;
                m13 = m14;
                m14 = m15;
                m15 = m8;
                m8 = t1;
            }
            out[outOff] = v0 ^ v8;
            out[outOff + 1] = v1 ^ v9;
            out[outOff + 2] = v2 ^ v10;
            out[outOff + 3] = v3 ^ v11;
            out[outOff + 4] = v4 ^ v12;
            out[outOff + 5] = v5 ^ v13;
            out[outOff + 6] = v6 ^ v14;
            out[outOff + 7] = v7 ^ v15;
        }
    }
}
