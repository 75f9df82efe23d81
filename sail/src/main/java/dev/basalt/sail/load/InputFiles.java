package dev.basalt.sail.load;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

/**
 * Input files: directories expanded to the RDF files under them, the format from a file's name
 * (through a {@code .gz} or {@code .bz2} suffix), decompression, and counting the bytes read.
 *
 * <p>Thread-safe: stateless helpers; each stream it opens is read by one parser thread, and the shared
 * byte counter is atomic.
 */
final class InputFiles {
    private static final int BUFFER = 1 << 16;

    /** The path that stands for standard input ({@code basalt load -}), read as N-Triples unless a format is named. */
    static final String STANDARD_INPUT = "-";

    private InputFiles() {
    }

    static boolean isStandardInput(Path file) {
        return file.toString().equals(STANDARD_INPUT);
    }

    static boolean isGzip(Path file) {
        return lowerName(file).endsWith(".gz");
    }

    static boolean isBzip2(Path file) {
        return lowerName(file).endsWith(".bz2");
    }

    private static String lowerName(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT);
    }

    /** The file name without a {@code .gz} or {@code .bz2} suffix. */
    private static String uncompressedName(Path file) {
        String name = file.getFileName().toString();
        if (isGzip(file)) {
            return name.substring(0, name.length() - 3);
        }
        return isBzip2(file) ? name.substring(0, name.length() - 4) : name;
    }

    /** The format of a file: {@code forced} if given, else from its name; a {@link LoadException} if unknown. */
    static RDFFormat format(Path file, RDFFormat forced) {
        if (forced != null) {
            return forced;
        }
        if (isStandardInput(file)) {
            return RDFFormat.NTRIPLES;
        }
        return Rio.getParserFormatForFileName(uncompressedName(file)).orElseThrow(() -> new LoadException(file, -1,
                "cannot tell the RDF format from the file name; use a known extension (.nt, .nq, .ttl, .trig, "
                        + ".rdf, .jsonld, optionally .gz or .bz2) or name the format", null));
    }

    /**
     * The files to load: each file as given, and for each directory the files under it (at any
     * depth, in path order) whose names give an RDF format, or every regular file under it when
     * {@code forced} names the format; {@code -} stands for standard input, at most once, in
     * N-Triples or N-Quads. A missing path, or a directory without such files, is a
     * {@link LoadException}.
     */
    static List<Path> expand(List<Path> paths, RDFFormat forced) {
        List<Path> out = new ArrayList<>();
        for (Path p : paths) {
            if (isStandardInput(p)) {
                if (out.stream().anyMatch(InputFiles::isStandardInput)) {
                    throw new LoadException(p, -1, "standard input is named more than once", null);
                }
                if (!StatementReader.isLineBased(format(p, forced))) {
                    throw new LoadException(p, -1, "standard input is read as N-Triples or N-Quads (--format nt or nq),"
                            + " not " + format(p, forced).getName(), null);
                }
                out.add(p);
            } else if (Files.isRegularFile(p)) {
                out.add(p);
            } else if (Files.isDirectory(p)) {
                List<Path> found;
                try (Stream<Path> walk = Files.walk(p)) {
                    found = walk.filter(Files::isRegularFile)
                            .filter(f -> forced != null || Rio.getParserFormatForFileName(uncompressedName(f)).isPresent())
                            .sorted().toList();
                } catch (IOException | UncheckedIOException e) {
                    throw new LoadException(p, -1, "cannot list the directory: " + e.getMessage(), e);
                }
                if (found.isEmpty()) {
                    throw new LoadException(p, -1, "the directory holds no file with an RDF extension (.nt, .nq, "
                            + ".ttl, .trig, .rdf, .jsonld, optionally .gz or .bz2)", null);
                }
                out.addAll(found);
            } else {
                throw new LoadException(p, -1, "no such file", null);
            }
        }
        return out;
    }

    /** A buffered stream whose bytes read are added to {@code counter}; closing it leaves {@code in} open. */
    static InputStream counting(InputStream in, AtomicLong counter) {
        return new BufferedInputStream(new CountingStream(in, counter) {
            @Override
            public void close() {
                // the caller's stream: it closes it
            }
        }, BUFFER);
    }

    /** Opens a file for parsing; every byte read from disk (compressed, for gzip and bzip2) is added to {@code counter}. */
    static InputStream open(Path file, AtomicLong counter) throws IOException {
        InputStream in = new CountingStream(Files.newInputStream(file), counter);
        if (isGzip(file)) {
            return new BufferedInputStream(new GZIPInputStream(in, BUFFER), BUFFER);
        }
        if (isBzip2(file)) {
            // concatenated streams too, as pbzip2 and lbzip2 write them
            return new BufferedInputStream(Bzip2.open(new BufferedInputStream(in, BUFFER)), BUFFER);
        }
        return new BufferedInputStream(in, BUFFER);
    }

    private static class CountingStream extends FilterInputStream {
        private final AtomicLong counter;

        CountingStream(InputStream in, AtomicLong counter) {
            super(in);
            this.counter = counter;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                counter.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                counter.addAndGet(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            counter.addAndGet(s);
            return s;
        }
    }

    /**
     * bzip2 through commons-compress, in a class of its own: loading {@code InputFiles} must not
     * need commons-compress, which a webapp running Basalt (RDF4J Server) may not ship; only a
     * {@code .bz2} file does.
     */
    private static final class Bzip2 {
        static InputStream open(InputStream in) throws IOException {
            return new org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream(in, true);
        }
    }
}
