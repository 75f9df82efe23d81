package dev.basalt.workbench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.FilterConfig;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

/**
 * The launcher's log of the read-only queries each repository answered, which the next start of the launcher
 * replays before it announces the server ({@link QueryLogReplay}), so that the JIT compiles the request path with
 * the profiles of the queries clients actually send rather than only those of the warm-up's catalogue.
 *
 * <p>A servlet filter on RDF4J Server's {@code /repositories/ID} requests: once {@link #startRecording} was called,
 * it keeps the text and {@code Accept} header of the last {@link #capacity} queries per repository that were
 * answered with a status below 300, sent as {@code GET ?query=} or as a form with a {@code query} field (never an
 * update: RDF4J Server evaluates only queries from that field). It writes them, oldest first, to {@value #FILE_NAME}
 * in the repository's directory ({@code DATA/server/repositories/ID/}, so the file goes when the repository is
 * deleted), every {@value #FLUSH_SECONDS} s while new ones came and when the webapp stops; the file format is in
 * docs/FORMAT.md. Texts longer than {@value #MAX_TEXT_CHARS} characters (encoded) are not kept, so the file stays under
 * about {@code capacity} times that. The entries a start found in the file stay in the log as its oldest, so a
 * start that answers few queries does not forget the traffic before it.
 *
 * <p>{@code -Dbasalt.server.queryLog=N} sets the capacity ({@value #DEFAULT_CAPACITY} unless set); {@code 0} turns
 * recording and replay off.
 *
 * <p>Thread rules: the request threads call {@link #doFilter} at once; each repository's entries are an {@link
 * Entries} whose methods are synchronized (an append is a deque operation, uncontended in the usual case), held in
 * a {@link ConcurrentHashMap}. {@link #startRecording} and {@link #capacity} are read through volatile fields. One
 * daemon thread of a single-threaded scheduler writes the files; {@link #destroy} stops it and writes once more on
 * the thread that stops the webapp. A file is written to a temporary name and moved over the old one, so a reader
 * (the next start) sees the old or the new file, never half of one.
 */
public final class QueryLog implements Filter {
    static final String FILE_NAME = "basalt-query-log.txt";
    static final String HEADER = "basalt-query-log 1";
    static final String CAPACITY_PROPERTY = "basalt.server.queryLog";
    static final int DEFAULT_CAPACITY = 4_000;
    static final int MAX_TEXT_CHARS = 8_192;
    static final int MAX_ACCEPT_CHARS = 256;
    static final long FLUSH_SECONDS = 60;
    private static final Pattern REPOSITORY_ID = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
    private static final String PREFIX = "/repositories/";
    /** What may not stand in a logged {@code Accept} value: the file's field and line separators. */
    private static final Pattern FIELD_BREAKS = Pattern.compile("[\\t\\r\\n]");

    /**
     * One logged query: the {@code Accept} header it came with (empty if none) and its text, encoded as a form value
     * ({@code application/x-www-form-urlencoded}, as a {@code GET} request's query string carries it, so that the
     * request threads keep it as it came and neither decode nor encode it).
     */
    record Entry(String accept, String encoded) {
        static Entry of(String accept, String text) {
            return new Entry(accept, URLEncoder.encode(text, StandardCharsets.UTF_8));
        }

        String text() {
            return URLDecoder.decode(encoded, StandardCharsets.UTF_8);
        }
    }

    /** A repository's last entries, oldest first; synchronized. */
    static final class Entries {
        private final ArrayDeque<Entry> deque = new ArrayDeque<>();
        private boolean changed;

        synchronized void add(Entry e, int capacity, boolean isNew) {
            while (deque.size() >= capacity && !deque.isEmpty()) {
                deque.removeFirst();
            }
            if (capacity > 0) {
                deque.addLast(e);
                changed |= isNew;
            }
        }

        /** The entries if any came since the last call, else null. */
        synchronized List<Entry> takeChanged() {
            if (!changed) {
                return null;
            }
            changed = false;
            return new ArrayList<>(deque);
        }
    }

    private final Path repositories;
    private final int capacity;
    private final Map<String, Entries> logs = new ConcurrentHashMap<>();
    private final Map<String, List<Entry>> found;
    private volatile boolean recording;
    private volatile ScheduledExecutorService flusher;

    /**
     * A log over the repositories under {@code dataDir/server/repositories}, keeping {@code capacity} queries per
     * repository; reads the files there now ({@link #found}).
     */
    QueryLog(Path dataDir, int capacity) {
        this.repositories = dataDir.resolve("server").resolve("repositories");
        this.capacity = capacity;
        this.found = capacity > 0 ? readAll(repositories) : Map.of();
        found.forEach((id, entries) -> {
            Entries e = logs.computeIfAbsent(id, k -> new Entries());
            for (Entry entry : entries) {
                e.add(entry, capacity, false);
            }
        });
    }

    /** The capacity {@code property} asks for: the default when unset; a clear error when not a count. */
    static int capacity(String property) {
        return ServerOptions.count(property, CAPACITY_PROPERTY, DEFAULT_CAPACITY, "a number of queries (0 for no query log)");
    }

    int capacity() {
        return capacity;
    }

    /** The entries the files held when this log was made, per repository id (in the order of the directory). */
    Map<String, List<Entry>> found() {
        return found;
    }

    /** From now on, answered queries are recorded (the launcher calls it once its warm-up and replay are done). */
    void startRecording() {
        recording = capacity > 0;
    }

    @Override
    public void init(FilterConfig config) {
        if (capacity > 0) {
            ScheduledExecutorService s = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "basalt-query-log-writer");
                t.setDaemon(true);
                return t;
            });
            s.scheduleWithFixedDelay(this::flush, FLUSH_SECONDS, FLUSH_SECONDS, TimeUnit.SECONDS);
            flusher = s;
        }
    }

    @Override
    public void destroy() {
        ScheduledExecutorService s = flusher;
        if (s != null) {
            s.shutdownNow();
            try {
                s.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        flush();
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, response);
        if (recording && request instanceof HttpServletRequest http && response instanceof HttpServletResponse answer
                && answer.getStatus() < 300) {
            record(http);
        }
    }

    private void record(HttpServletRequest http) {
        String id = repositoryId(http.getRequestURI(), http.getContextPath());
        if (id == null || id.equals(LauncherWarmup.REPOSITORY)) {
            return;
        }
        String method = http.getMethod();
        String type = http.getContentType();
        if (!"GET".equals(method) && !("POST".equals(method) && type != null
                && type.startsWith("application/x-www-form-urlencoded"))) {
            return;
        }
        String encoded = "GET".equals(method) ? formValue(http.getQueryString(), "query") : null;
        if (encoded == null) {
            String text = http.getParameter("query");
            encoded = text == null ? null : URLEncoder.encode(text, StandardCharsets.UTF_8);
        }
        if (encoded == null || encoded.isEmpty() || encoded.length() > MAX_TEXT_CHARS) {
            return;
        }
        String accept = http.getHeader("Accept");
        accept = accept == null ? "" : accept;
        if (accept.indexOf('\t') >= 0 || accept.indexOf('\r') >= 0 || accept.indexOf('\n') >= 0) {
            accept = FIELD_BREAKS.matcher(accept).replaceAll(" ");
        }
        if (accept.length() > MAX_ACCEPT_CHARS) {
            accept = accept.substring(0, MAX_ACCEPT_CHARS);
        }
        logs.computeIfAbsent(id, k -> new Entries()).add(new Entry(accept, encoded), capacity, true);
    }

    /**
     * The value of field {@code name} in the form-encoded {@code query} string as it is there, if it holds only the
     * characters a form encoder writes (letters, digits, {@code .-*_+} and {@code %} escapes); null if the field is
     * absent or written otherwise (then the caller reads it decoded from the request).
     */
    static String formValue(String query, String name) {
        if (query == null) {
            return null;
        }
        for (int start = 0; start < query.length();) {
            int end = query.indexOf('&', start);
            end = end < 0 ? query.length() : end;
            if (query.startsWith(name, start) && start + name.length() < end && query.charAt(start + name.length()) == '=') {
                String value = query.substring(start + name.length() + 1, end);
                for (int i = 0; i < value.length(); i++) {
                    char c = value.charAt(i);
                    if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-'
                            || c == '*' || c == '_' || c == '+' || c == '%' && i + 2 < value.length()
                                    && hex(value.charAt(i + 1)) && hex(value.charAt(i + 2)))) {
                        return null;
                    }
                }
                return value;
            }
            start = end + 1;
        }
        return null;
    }

    private static boolean hex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    /** The repository id of a {@code /repositories/ID} request (nothing after the id), or null. */
    static String repositoryId(String uri, String contextPath) {
        if (uri == null) {
            return null;
        }
        String path = contextPath != null && uri.startsWith(contextPath) ? uri.substring(contextPath.length()) : uri;
        if (!path.startsWith(PREFIX)) {
            return null;
        }
        String id = path.substring(PREFIX.length());
        return REPOSITORY_ID.matcher(id).matches() ? id : null;
    }

    /** Writes the logs that changed; a repository whose directory is gone (deleted) gets no file. */
    void flush() {
        for (Map.Entry<String, Entries> e : logs.entrySet()) {
            List<Entry> entries = e.getValue().takeChanged();
            Path dir = repositories.resolve(e.getKey());
            if (entries == null || !Files.isDirectory(dir)) {
                continue;
            }
            try {
                write(dir.resolve(FILE_NAME), entries);
            } catch (IOException ex) {
                System.err.println("basalt-server: cannot write the query log of " + e.getKey() + ": " + ex);
            }
        }
    }

    static void write(Path file, List<Entry> entries) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (BufferedWriter w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            w.write(HEADER);
            w.write('\n');
            for (Entry e : entries) {
                w.write(e.accept());
                w.write('\t');
                w.write(e.encoded());
                w.write('\n');
            }
        }
        try {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException ex) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * The entries of {@code file}; an error if its first line is not {@value #HEADER} or a line is not
     * {@code ACCEPT TAB URL-ENCODED-TEXT}.
     */
    static List<Entry> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(file + ": not a query log (first line is not '" + HEADER + "')");
        }
        List<Entry> entries = new ArrayList<>(lines.size() - 1);
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            int tab = line.indexOf('\t');
            if (tab < 0) {
                throw new IOException(file + ":" + (i + 1) + ": no tab between the Accept header and the query");
            }
            Entry entry = new Entry(line.substring(0, tab), line.substring(tab + 1));
            try {
                entry.text();
                entries.add(entry);
            } catch (IllegalArgumentException e) {
                throw new IOException(file + ":" + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return entries;
    }

    /** The logs under {@code repositories}; a file that cannot be read is reported on standard error and skipped. */
    private static Map<String, List<Entry>> readAll(Path repositories) {
        Map<String, List<Entry>> all = new LinkedHashMap<>();
        if (!Files.isDirectory(repositories)) {
            return all;
        }
        try (var dirs = Files.list(repositories)) {
            for (Path dir : dirs.sorted().toList()) {
                Path file = dir.resolve(FILE_NAME);
                String id = dir.getFileName().toString();
                if (!Files.isRegularFile(file) || !REPOSITORY_ID.matcher(id).matches()) {
                    continue;
                }
                try {
                    List<Entry> entries = read(file);
                    if (!entries.isEmpty()) {
                        all.put(id, entries);
                    }
                } catch (IOException e) {
                    System.err.println("basalt-server: query log skipped: " + e.getMessage());
                }
            }
        } catch (IOException e) {
            System.err.println("basalt-server: cannot list " + repositories + ": " + e);
        }
        return all;
    }
}
