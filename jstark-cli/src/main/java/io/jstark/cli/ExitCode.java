package io.jstark.cli;

import io.jstark.air.debug.BusImbalanceException;
import io.jstark.air.debug.ConstraintViolationException;
import io.jstark.crypto.hash.UnknownHashException;
import io.jstark.crypto.lanes.InvalidLanesSettingException;
import io.jstark.examples.UnknownExampleException;
import io.jstark.protocol.InsufficientSecurityException;
import io.jstark.protocol.InvalidOptionsException;
import io.jstark.protocol.InvalidStatementException;
import io.jstark.protocol.InvalidVerifyingKeyException;
import io.jstark.protocol.ProofRejectedException;
import io.jstark.scheduler.InvalidSchedulerSettingException;
import io.jstark.storage.InsufficientMemoryException;
import io.jstark.storage.InvalidStorageSettingException;
import io.jstark.storage.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one exit-code convention of every {@code jstark} command, and the one place that maps what went
 * wrong to it: commands return normally on success and throw otherwise; {@link Main} turns the exception
 * into a message and one of these codes.
 */
enum ExitCode {
    OK(0, "success (verify: the proof is valid)"),
    REJECTED(
            1,
            "the proof is rejected: invalid, or not of the expected statement (verify); not a readable proof (inspect)"),
    USAGE(
            2,
            "usage error: an unknown option, a bad value, options that do not fit together (e.g. too little security), an output "
                    + "that is a directory or a key file that exists (keygen without --force)"),
    INPUT(
            3,
            "input or environment error: a file missing, unreadable or not what it should be (proof, key, statement, "
                    + "timeline), a statement naming a definition its key lacks, a trace that breaks a constraint or a bus, disk full, "
                    + "spill directory unusable, memory exhausted, a cluster's worker unreachable or failing, workers' budgets no placement fits"),
    INTERNAL(4, "internal error: a bug in jstark (JSTARK_STACKTRACE=1 prints the stack trace)");

    final int code;
    final String meaning;

    ExitCode(int code, String meaning) {
        this.code = code;
        this.meaning = meaning;
    }

    /** What a failure means for the caller; wrapped failures (a table's proving failed) by their cause. */
    static ExitCode of(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause()) {
            ExitCode code = classify(e);
            if (code != null) {
                return code;
            }
        }
        return INTERNAL;
    }

    private static ExitCode classify(Throwable e) {
        if (e instanceof ProofRejectedException) {
            return REJECTED;
        }
        if (e instanceof Main.InputException
                || e instanceof IOException
                || e instanceof UncheckedIOException
                || e instanceof InvalidVerifyingKeyException
                || e instanceof OutOfMemoryError
                || e instanceof io.jstark.math.memory.OffHeapAllocationException) {
            return INPUT;
        }
        if (e instanceof InvalidStorageSettingException
                || e instanceof InsufficientMemoryException
                || e instanceof InvalidSchedulerSettingException
                || e instanceof InvalidLanesSettingException) {
            // settings the user gave: --storage, --memory-budget, their environment variables, -Djstark.crypto.lanes
            return USAGE;
        }
        if (e instanceof ConstraintViolationException || e instanceof BusImbalanceException) {
            // the traces given do not satisfy the tables' constraints or their buses
            return INPUT;
        }
        if (e instanceof io.jstark.cluster.ClusterException) {
            // the cluster: a worker unreachable, refusing, failing a round, or budgets no placement fits
            return INPUT;
        }
        if (e instanceof StorageException) {
            // the spill directory or its space
            return INPUT;
        }
        if (e instanceof Main.UsageException
                || e instanceof InvalidOptionsException
                || e instanceof InsufficientSecurityException
                || e instanceof InvalidStatementException
                || e instanceof UnknownHashException
                || e instanceof UnknownExampleException) {
            // the typed refusals of what the command line names: options, values, their combinations, the
            // example and its size; any other IllegalArgumentException is a bug and stays INTERNAL
            return USAGE;
        }
        return null;
    }

    /** The convention as --help lists it. */
    static Map<String, String> helpList() {
        Map<String, String> list = new LinkedHashMap<>();
        for (ExitCode c : values()) {
            list.put(Integer.toString(c.code), c.meaning);
        }
        return list;
    }
}
