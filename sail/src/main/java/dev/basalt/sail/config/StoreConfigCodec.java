package dev.basalt.sail.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.sail.config.SailConfigException;

import dev.basalt.optimizer.exec.ParallelMode;
import dev.basalt.store.journal.JournalMode;

/**
 * Reads and writes the store's settings of a {@link BasaltStoreConfig} as RDF on the store's sail
 * node, one codec row for each {@link BasaltSettings} row of scope {@link BasaltSettings.Scope#STORE}
 * (loading this class fails if a row has none). Writing leaves out what is unset or at its default,
 * except the journal mode, the history retention, durability and native evaluation, which are
 * always written; reading sets what the node carries, leaves a missing or blank value (a template
 * field left empty) unset, and refuses a malformed one with a {@link SailConfigException} that
 * names the property and the value found. Both go through the bean's getters and setters.
 *
 * <p>Thread-safe: stateless static functions over an immutable table; the configuration and the
 * model they are given must not be used by another thread meanwhile.
 */
final class StoreConfigCodec {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    /** How one setting is written (null when it is unset) and read. */
    private record Codec(Function<BasaltStoreConfig, Literal> write, BiConsumer<BasaltStoreConfig, Literal> read) {
    }

    /** The codec of each store setting, in the order they are written. */
    private static final Map<BasaltSettings, Codec> CODECS = codecs();

    private StoreConfigCodec() {
    }

    /** Adds the configuration's store settings to {@code m} on {@code node}, with the vocabulary's prefix. */
    static void export(BasaltStoreConfig c, Model m, Resource node) {
        m.setNamespace(BasaltStoreSchema.PREFIX, BasaltStoreSchema.NAMESPACE);
        CODECS.forEach((setting, codec) -> {
            Literal value = codec.write().apply(c);
            if (value != null) {
                m.add(node, setting.iri(), value);
            }
        });
    }

    /** Sets the store settings {@code node} carries in {@code m} on the configuration. */
    static void parse(BasaltStoreConfig c, Model m, Resource node) throws SailConfigException {
        CODECS.forEach((setting, codec) -> Models.objectLiteral(m.getStatements(node, setting.iri(), null))
                .filter(l -> !l.getLabel().isBlank())
                .ifPresent(l -> codec.read().accept(c, l)));
    }

    private static Map<BasaltSettings, Codec> codecs() {
        Map<BasaltSettings, Codec> t = new LinkedHashMap<>();
        t.put(BasaltSettings.JOURNAL_MODE, new Codec(c -> VF.createLiteral(c.getJournalMode().name()), (c, l) -> {
            try {
                c.setJournalMode(JournalMode.valueOf(l.getLabel().trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new SailConfigException(BasaltStoreSchema.JOURNAL_MODE + " must be RW or WORM, found '"
                        + l.getLabel() + "'");
            }
        }));
        t.put(BasaltSettings.HISTORY_RETENTION, new Codec(c -> VF.createLiteral(c.getHistoryRetention().toString()),
                (c, l) -> c.setHistoryRetention(duration(l, BasaltStoreSchema.HISTORY_RETENTION, "PT0S, PT30M or P7D"))));
        t.put(BasaltSettings.STATEMENT_INDEXES, new Codec(
                c -> c.getStatementIndexes() != null ? VF.createLiteral(c.getStatementIndexes()) : null,
                (c, l) -> c.setStatementIndexes(l.getLabel().trim())));
        t.put(BasaltSettings.LEAF_MAX_ENTRIES, new Codec(c -> positive(c.getLeafMaxEntries()),
                (c, l) -> c.setLeafMaxEntries((int) number(l, BasaltStoreSchema.LEAF_MAX_ENTRIES))));
        t.put(BasaltSettings.INTERNAL_MAX_ENTRIES, new Codec(c -> positive(c.getInternalMaxEntries()),
                (c, l) -> c.setInternalMaxEntries((int) number(l, BasaltStoreSchema.INTERNAL_MAX_ENTRIES))));
        t.put(BasaltSettings.PAGE_CACHE_BYTES, new Codec(
                c -> c.getPageCacheBytes() >= 0 ? VF.createLiteral(c.getPageCacheBytes()) : null,
                (c, l) -> c.setPageCacheBytes(number(l, BasaltStoreSchema.PAGE_CACHE_BYTES))));
        t.put(BasaltSettings.VALUE_CACHE_SIZE, new Codec(
                c -> c.getValueCacheSize() >= 0 ? VF.createLiteral(c.getValueCacheSize()) : null,
                (c, l) -> c.setValueCacheSize((int) number(l, BasaltStoreSchema.VALUE_CACHE_SIZE))));
        t.put(BasaltSettings.DERIVED_CACHE_BYTES, new Codec(
                c -> c.getDerivedCacheBytes() >= 0 ? VF.createLiteral(c.getDerivedCacheBytes()) : null,
                (c, l) -> c.setDerivedCacheBytes(number(l, BasaltStoreSchema.DERIVED_CACHE_BYTES))));
        t.put(BasaltSettings.VALUE_ID_CACHE_SIZE, new Codec(
                c -> c.getValueIdCacheSize() >= 0 ? VF.createLiteral(c.getValueIdCacheSize()) : null,
                (c, l) -> c.setValueIdCacheSize((int) number(l, BasaltStoreSchema.VALUE_ID_CACHE_SIZE))));
        t.put(BasaltSettings.DURABLE, new Codec(c -> VF.createLiteral(c.isDurable()),
                (c, l) -> c.setDurable(bool(l, BasaltStoreSchema.DURABLE))));
        t.put(BasaltSettings.SPILL_THRESHOLD, new Codec(c -> positive(c.getSpillThreshold()),
                (c, l) -> c.setSpillThreshold((int) number(l, BasaltStoreSchema.SPILL_THRESHOLD))));
        t.put(BasaltSettings.LARGE_TRANSACTION_THRESHOLD, new Codec(
                c -> c.getLargeTransactionThreshold() != BasaltStoreConfig.DEFAULT_LARGE_TRANSACTION_THRESHOLD
                        ? VF.createLiteral(c.getLargeTransactionThreshold()) : null,
                (c, l) -> c.setLargeTransactionThreshold(number(l, BasaltStoreSchema.LARGE_TRANSACTION_THRESHOLD))));
        t.put(BasaltSettings.LARGE_TRANSACTION_IDLE_SECONDS, new Codec(
                c -> c.getLargeTransactionIdleSeconds() != BasaltStoreConfig.DEFAULT_LARGE_TRANSACTION_IDLE_SECONDS
                        ? VF.createLiteral(c.getLargeTransactionIdleSeconds()) : null,
                (c, l) -> c.setLargeTransactionIdleSeconds(
                        (int) number(l, BasaltStoreSchema.LARGE_TRANSACTION_IDLE_SECONDS))));
        t.put(BasaltSettings.NATIVE_EVALUATION, new Codec(c -> VF.createLiteral(c.isNativeEvaluation()),
                (c, l) -> c.setNativeEvaluation(bool(l, BasaltStoreSchema.NATIVE_EVALUATION))));
        t.put(BasaltSettings.SORT_ROWS, new Codec(c -> positive(c.getSortRows()),
                (c, l) -> c.setSortRows(rows(l, BasaltStoreSchema.SORT_ROWS))));
        t.put(BasaltSettings.DISTINCT_ROWS, new Codec(c -> positive(c.getDistinctRows()),
                (c, l) -> c.setDistinctRows(rows(l, BasaltStoreSchema.DISTINCT_ROWS))));
        t.put(BasaltSettings.GROUP_ROWS, new Codec(c -> positive(c.getGroupRows()),
                (c, l) -> c.setGroupRows(rows(l, BasaltStoreSchema.GROUP_ROWS))));
        t.put(BasaltSettings.HASH_JOIN_ROWS, new Codec(c -> positive(c.getHashJoinRows()),
                (c, l) -> c.setHashJoinRows(rows(l, BasaltStoreSchema.HASH_JOIN_ROWS))));
        t.put(BasaltSettings.PATH_NODES, new Codec(c -> positive(c.getPathNodes()),
                (c, l) -> c.setPathNodes(rows(l, BasaltStoreSchema.PATH_NODES))));
        t.put(BasaltSettings.SPILL_DIRECTORY, new Codec(
                c -> c.getSpillDirectory() != null ? VF.createLiteral(c.getSpillDirectory()) : null,
                (c, l) -> c.setSpillDirectory(l.getLabel())));
        t.put(BasaltSettings.HELPER_THREADS, new Codec(
                c -> c.getHelperThreads() >= 0 ? VF.createLiteral(c.getHelperThreads()) : null,
                (c, l) -> c.setHelperThreads("-1".equals(l.getLabel().trim()) ? -1
                        : (int) number(l, BasaltStoreSchema.HELPER_THREADS))));
        t.put(BasaltSettings.QUERY_TIMEOUT_SECONDS, new Codec(c -> positive(c.getQueryTimeoutSeconds()),
                (c, l) -> c.setQueryTimeoutSeconds((int) number(l, BasaltStoreSchema.QUERY_TIMEOUT_SECONDS))));
        t.put(BasaltSettings.READER_WARN_AGE, new Codec(
                c -> c.getReaderWarnAge() != null ? VF.createLiteral(c.getReaderWarnAge().toString()) : null,
                (c, l) -> c.setReaderWarnAge(duration(l, BasaltStoreSchema.READER_WARN_AGE, "PT10M"))));
        t.put(BasaltSettings.MAX_FILE_BYTES, new Codec(
                c -> c.getMaxFileBytes() >= 0 ? VF.createLiteral(c.getMaxFileBytes()) : null,
                (c, l) -> c.setMaxFileBytes(rows(l, BasaltStoreSchema.MAX_FILE_BYTES))));
        t.put(BasaltSettings.BATCHES, new Codec(c -> c.getBatches() != null ? VF.createLiteral(c.getBatches()) : null,
                (c, l) -> c.setBatches(bool(l, BasaltStoreSchema.BATCHES))));
        t.put(BasaltSettings.PARALLEL, new Codec(
                c -> c.getParallel() != null ? VF.createLiteral(c.getParallel().label()) : null, (c, l) -> {
                    try {
                        c.setParallel(ParallelMode.parse(l.getLabel()));
                    } catch (IllegalArgumentException e) {
                        throw new SailConfigException(BasaltStoreSchema.PARALLEL + " must be auto, force or off, found '"
                                + l.getLabel() + "'");
                    }
                }));
        t.put(BasaltSettings.COMPACT_FREE_PERCENT, new Codec(c -> positive(c.getCompactFreePercent()), (c, l) -> {
            long v = number(l, BasaltStoreSchema.COMPACT_FREE_PERCENT);
            if (v > 99) {
                throw new SailConfigException(BasaltStoreSchema.COMPACT_FREE_PERCENT + " must be 0 (never) to 99, found '"
                        + l.getLabel() + "'");
            }
            c.setCompactFreePercent((int) v);
        }));
        t.put(BasaltSettings.PREWARM, new Codec(c -> c.getPrewarm() != null ? VF.createLiteral(c.getPrewarm()) : null,
                (c, l) -> c.setPrewarm(bool(l, BasaltStoreSchema.PREWARM))));
        t.put(BasaltSettings.INFERENCE, new Codec(
                c -> c.getInference() != InferenceMode.NONE ? VF.createLiteral(c.getInference().label()) : null,
                (c, l) -> {
                    try {
                        c.setInference(InferenceMode.parse(l.getLabel()));
                    } catch (IllegalArgumentException e) {
                        throw new SailConfigException(BasaltStoreSchema.INFERENCE + ": " + e.getMessage());
                    }
                }));
        String missing = Arrays.stream(BasaltSettings.values())
                .filter(s -> s.scope() == BasaltSettings.Scope.STORE && !t.containsKey(s))
                .map(BasaltSettings::localName).collect(Collectors.joining(", "));
        if (!missing.isEmpty()) {
            throw new IllegalStateException("store settings without a codec row: " + missing);
        }
        return Collections.unmodifiableMap(t);
    }

    /** The literal of an int setting written only when positive. */
    private static Literal positive(int value) {
        return value > 0 ? VF.createLiteral(value) : null;
    }

    /** The literal of a long setting written only when positive. */
    private static Literal positive(long value) {
        return value > 0 ? VF.createLiteral(value) : null;
    }

    private static Duration duration(Literal l, IRI property, String examples) {
        try {
            return Duration.parse(l.getLabel().trim());
        } catch (DateTimeParseException e) {
            throw new SailConfigException(property + " must be an ISO-8601 duration such as " + examples + ", found '"
                    + l.getLabel() + "'");
        }
    }

    private static boolean bool(Literal l, IRI property) {
        String b = l.getLabel().trim();
        if (!b.equals("true") && !b.equals("false")) {
            throw new SailConfigException(property + " must be true or false, found '" + b + "'");
        }
        return Boolean.parseBoolean(b);
    }

    private static long number(Literal l, IRI property) {
        try {
            long v = Long.parseLong(l.getLabel().trim());
            if (v < 0 || v > Integer.MAX_VALUE && !property.equals(BasaltStoreSchema.PAGE_CACHE_BYTES)
                    && !property.equals(BasaltStoreSchema.DERIVED_CACHE_BYTES)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new SailConfigException(property + " must be a non-negative integer, found '" + l.getLabel() + "'");
        }
    }

    /** A non-negative long (0 = unset for row budgets, no limit for maxFileBytes). */
    private static long rows(Literal l, IRI property) {
        try {
            long v = Long.parseLong(l.getLabel().trim());
            if (v >= 0) {
                return property.equals(BasaltStoreSchema.MAX_FILE_BYTES) || v > 0 ? v : -1;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SailConfigException(property + " must be a non-negative integer, found '" + l.getLabel() + "'");
    }
}
