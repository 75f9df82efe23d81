package dev.basalt.sail.load;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;

/** Opening input files: format from the name (through a {@code .gz} suffix), decompression, byte counting. */
final class InputFiles {
    private static final int BUFFER = 1 << 16;

    private InputFiles() {
    }

    static boolean isGzip(Path file) {
        return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".gz");
    }

    /** The format of a file: {@code forced} if given, else from its name; a {@link LoadException} if unknown. */
    static RDFFormat format(Path file, RDFFormat forced) {
        if (forced != null) {
            return forced;
        }
        String name = file.getFileName().toString();
        if (isGzip(file)) {
            name = name.substring(0, name.length() - 3);
        }
        return Rio.getParserFormatForFileName(name).orElseThrow(() -> new LoadException(file, -1,
                "cannot tell the RDF format from the file name; use a known extension (.nt, .nq, .ttl, .trig, "
                        + ".rdf, .jsonld, optionally .gz) or name the format", null));
    }

    /** Opens a file for parsing; every byte read from disk (compressed, for gzip) is added to {@code counter}. */
    static InputStream open(Path file, AtomicLong counter) throws IOException {
        InputStream in = new CountingStream(Files.newInputStream(file), counter);
        return isGzip(file) ? new BufferedInputStream(new GZIPInputStream(in, BUFFER), BUFFER)
                : new BufferedInputStream(in, BUFFER);
    }

    private static final class CountingStream extends FilterInputStream {
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
}
