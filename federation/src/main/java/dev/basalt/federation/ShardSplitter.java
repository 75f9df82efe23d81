package dev.basalt.federation;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.zip.GZIPInputStream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits N-Triples and N-Quads files (optionally gzipped) into one file per shard with
 * {@link SubjectHashPartition}. Both formats hold one statement per line with the subject first,
 * so a line is routed by its first term and copied unchanged; nothing else of it is parsed (the
 * member's own parser checks the rest when the shard is loaded).
 *
 * <p>Subjects that {@link ReplicatedVocabulary} names (an ontology's classes, properties and axioms, and
 * configured small classes) are <em>replicated</em>: every statement with such a subject goes to every
 * shard. Finding them takes a first pass over the input that reads each line's predicate and object;
 * the second pass routes the lines.
 *
 * <p>The shard files are N-Quads ({@code shard-<i>.nq}) when any input is N-Quads (an N-Triples
 * line is a valid N-Quads line), N-Triples ({@code shard-<i>.nt}) otherwise. Blank node labels are
 * kept as written: labels of different input files must differ when they mean different nodes.
 *
 * <p>Not thread-safe; one split at a time per instance.
 */
public final class ShardSplitter {
    private static final Logger LOG = LoggerFactory.getLogger(ShardSplitter.class);

    /**
     * What a split produced: the shard files in shard order, the statements written to each (replicated
     * ones included), the input statements, and how many of those went to every shard.
     */
    public record Split(List<Path> files, long[] statements, boolean quads, long total, long replicated) {
    }

    private final SubjectHashPartition partition;
    private final ReplicatedVocabulary replication;

    public ShardSplitter(SubjectHashPartition partition) {
        this(partition, ReplicatedVocabulary.schema());
    }

    public ShardSplitter(SubjectHashPartition partition, ReplicatedVocabulary replication) {
        this.partition = partition;
        this.replication = replication;
    }

    public Split split(List<Path> inputs, Path outputDir) throws IOException {
        boolean quads = false;
        for (Path input : inputs) {
            quads |= isQuads(input);
        }
        Files.createDirectories(outputDir);
        int n = partition.shards();
        List<Path> files = new ArrayList<>(n);
        BufferedWriter[] writers = new BufferedWriter[n];
        long[] counts = new long[n];
        long[] totals = new long[2];
        long started = System.nanoTime();
        Set<String> replicated = new HashSet<>();
        for (Path input : inputs) {
            checkFormat(input);
            findReplicated(input, replicated);
        }
        try {
            for (int i = 0; i < n; i++) {
                files.add(outputDir.resolve("shard-" + i + (quads ? ".nq" : ".nt")));
                writers[i] = Files.newBufferedWriter(files.get(i), StandardCharsets.UTF_8);
            }
            for (Path input : inputs) {
                splitFile(input, writers, counts, replicated, totals);
            }
        } finally {
            IOException failure = null;
            for (BufferedWriter w : writers) {
                try {
                    if (w != null) {
                        w.close();
                    }
                } catch (IOException e) {
                    failure = e;
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
        Split split = new Split(List.copyOf(files), counts, quads, totals[0], totals[1]);
        LOG.info("split {} statements into {} shards in {} ms: {} ({} statements of {} replicated subjects on every shard)",
                split.total(), n, (System.nanoTime() - started) / 1_000_000, java.util.Arrays.toString(counts),
                split.replicated(), replicated.size());
        return split;
    }

    private static void checkFormat(Path input) throws IOException {
        if (!isQuads(input) && !isTriples(input)) {
            throw new IOException(input + ": the partitioning loader reads N-Triples (.nt) and N-Quads (.nq),"
                    + " optionally gzipped (.gz); convert other formats first (e.g. with an RDF4J client)");
        }
    }

    private static BufferedReader open(Path input) throws IOException {
        InputStream raw = Files.newInputStream(input);
        InputStream in = input.toString().endsWith(".gz") ? new GZIPInputStream(raw, 1 << 16) : raw;
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    /** What a pass does with one statement line: {@code start} is where its subject begins. */
    private interface LineVisitor {
        void visit(String line, int start, long lineNumber) throws IOException;
    }

    /** Calls {@code visitor} for every statement line of {@code input} (blank and comment lines skipped). */
    private static void forEachStatement(Path input, LineVisitor visitor) throws IOException {
        try (BufferedReader reader = open(input)) {
            String line;
            long lineNumber = 0;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                int start = skipSpace(line, 0);
                if (start < line.length() && line.charAt(start) != '#') {
                    visitor.visit(line, start, lineNumber);
                }
            }
        }
    }

    /** First pass: the subjects that have a replication statement. */
    private void findReplicated(Path input, Set<String> replicated) throws IOException {
        forEachStatement(input, (line, start, lineNumber) -> {
            int predicateStart = skipSpace(line, termEnd(line, start));
            int predicateEnd = predicateStart < line.length() && line.charAt(predicateStart) == '<'
                    ? line.indexOf('>', predicateStart + 1) : -1;
            if (predicateEnd < 0) {
                return; // malformed: the second pass names the line
            }
            String predicate = iri(line.substring(predicateStart + 1, predicateEnd), input, lineNumber);
            int objectStart = skipSpace(line, predicateEnd + 1);
            String object = null;
            if (objectStart < line.length() && line.charAt(objectStart) == '<') {
                int objectEnd = line.indexOf('>', objectStart + 1);
                object = objectEnd < 0 ? null : iri(line.substring(objectStart + 1, objectEnd), input, lineNumber);
            }
            if (replication.replicates(predicate, object)) {
                replicated.add(subjectKey(line, start, input, lineNumber));
            }
        });
    }

    /** Second pass: every line to its subject's shard, a replicated subject's lines to every shard. */
    private void splitFile(Path input, BufferedWriter[] writers, long[] counts, Set<String> replicated, long[] totals)
            throws IOException {
        forEachStatement(input, (line, start, lineNumber) -> {
            String key = subjectKey(line, start, input, lineNumber);
            totals[0]++;
            if (!replicated.isEmpty() && replicated.contains(key)) {
                totals[1]++;
                for (int shard = 0; shard < writers.length; shard++) {
                    write(writers, counts, shard, line, start);
                }
            } else {
                write(writers, counts, partition.shardOf(key), line, start);
            }
        });
    }

    private static void write(BufferedWriter[] writers, long[] counts, int shard, String line, int start)
            throws IOException {
        writers[shard].write(line, start, line.length() - start);
        writers[shard].write('\n');
        counts[shard]++;
    }

    /** The end (exclusive) of the term starting at {@code i}: an IRI, a blank node or anything up to white space. */
    private static int termEnd(String line, int i) {
        if (i < line.length() && line.charAt(i) == '<') {
            int end = line.indexOf('>', i + 1);
            return end < 0 ? line.length() : end + 1;
        }
        while (i < line.length() && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        return i;
    }

    private static String iri(String written, Path input, long lineNumber) throws IOException {
        return written.indexOf('\\') < 0 ? written : unescape(written, input, lineNumber);
    }

    /** The subject's partition key: the IRI with escapes resolved, or "_:" and the blank node label. */
    static String subjectKey(String line, int start, Path input, long lineNumber) throws IOException {
        char first = line.charAt(start);
        if (first == '<') {
            int end = line.indexOf('>', start + 1);
            if (end < 0) {
                throw malformed(input, lineNumber, "the subject IRI has no closing '>'");
            }
            String iri = line.substring(start + 1, end);
            return iri.indexOf('\\') < 0 ? iri : unescape(iri, input, lineNumber);
        }
        if (first == '_' && line.startsWith("_:", start)) {
            int end = start + 2;
            while (end < line.length() && !Character.isWhitespace(line.charAt(end))) {
                end++;
            }
            if (end == start + 2) {
                throw malformed(input, lineNumber, "the blank node subject has no label");
            }
            return line.substring(start, end);
        }
        throw malformed(input, lineNumber, "a statement must start with a subject IRI <...> or a blank node _:label");
    }

    /** Resolves N-Triples' {@code \\uXXXX} and {@code \\UXXXXXXXX} escapes, the only ones an IRI may hold. */
    private static String unescape(String iri, Path input, long lineNumber) throws IOException {
        StringBuilder out = new StringBuilder(iri.length());
        for (int i = 0; i < iri.length(); i++) {
            char c = iri.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            int digits = i + 1 < iri.length() && iri.charAt(i + 1) == 'u' ? 4
                    : i + 1 < iri.length() && iri.charAt(i + 1) == 'U' ? 8 : 0;
            if (digits == 0 || i + 2 + digits > iri.length()) {
                throw malformed(input, lineNumber, "an IRI may hold only \\uXXXX or \\UXXXXXXXX escapes");
            }
            try {
                out.appendCodePoint(Integer.parseInt(iri.substring(i + 2, i + 2 + digits), 16));
            } catch (IllegalArgumentException e) {
                throw malformed(input, lineNumber, "bad escape in IRI: " + iri.substring(i, i + 2 + digits));
            }
            i += 1 + digits;
        }
        return out.toString();
    }

    private static int skipSpace(String line, int i) {
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static IOException malformed(Path input, long lineNumber, String what) {
        return new IOException(input + ":" + lineNumber + ": " + what
                + "; fix the line or convert the file with an RDF4J client, then load again");
    }

    static boolean isQuads(Path file) {
        String name = baseName(file);
        return name.endsWith(".nq");
    }

    static boolean isTriples(Path file) {
        String name = baseName(file);
        return name.endsWith(".nt");
    }

    private static String baseName(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name;
    }
}
