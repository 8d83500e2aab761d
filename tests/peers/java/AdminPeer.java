import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * Apache Kafka's Java AdminClient as a test peer: one JSON command per stdin line, one JSON answer per
 * stdout line, so a whole test session shares one JVM.
 *
 * <p>Commands: {"op": "open", "name": N, "props": {...}} creates an Admin client from client properties;
 * {"op": "close", "name": N}; {"op": "version"}; any other op is an Admin call on client N (see Ops). An
 * answer is {"ok": value} or {"error": {"type", "class", "code", "message"}} where type is the simple
 * exception class name, code the Kafka error name the exception stands for.
 */
public final class AdminPeer {
    private static final Map<String, Admin> CLIENTS = new HashMap<>();
    private static long waitMs = 30_000;

    private AdminPeer() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err); // nothing but answers on the protocol stream
        if (args.length > 0) {
            waitMs = Long.parseLong(args[0]);
        }
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        answers.println(Json.write(Map.of("ok", "ready")));
        String line;
        while ((line = commands.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            Object answer;
            try {
                @SuppressWarnings("unchecked")
                Map<String, Object> command = (Map<String, Object>) Json.parse(line);
                Map<String, Object> ok = new LinkedHashMap<>();
                ok.put("ok", run(command));
                answer = ok;
            } catch (Throwable error) {
                answer = Map.of("error", error(error));
            }
            answers.println(Json.write(answer));
        }
        for (Admin admin : CLIENTS.values()) {
            admin.close(java.time.Duration.ofSeconds(5));
        }
    }

    private static Object run(Map<String, Object> command) throws Exception {
        String op = (String) command.get("op");
        String name = (String) command.getOrDefault("client", command.get("name"));
        switch (op) {
            case "version":
                return AppInfoParser.getVersion();
            case "open": {
                Properties props = new Properties();
                @SuppressWarnings("unchecked")
                Map<String, Object> given = (Map<String, Object>) command.get("props");
                given.forEach((k, v) -> props.put(k, String.valueOf(v)));
                Admin old = CLIENTS.put(name, Admin.create(props));
                if (old != null) {
                    old.close(java.time.Duration.ofSeconds(5));
                }
                return name;
            }
            case "close": {
                Admin admin = CLIENTS.remove(name);
                if (admin != null) {
                    admin.close(java.time.Duration.ofSeconds(5));
                }
                return name;
            }
            default: {
                Admin admin = CLIENTS.get(name);
                if (admin == null) {
                    throw new IllegalArgumentException("no client named " + name);
                }
                return Ops.run(admin, op, command);
            }
        }
    }

    /** The value of a future within the peer's deadline; the failure cause is thrown as is. */
    static <T> T await(KafkaFuture<T> future) throws Exception {
        try {
            return future.get(waitMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException error) {
            throw unwrap(error);
        }
    }

    /** {"ok": convert(value)} or {"error": ...}: per-item results of one call. */
    static <T> Map<String, Object> settle(KafkaFuture<T> future, Function<T, Object> convert) {
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.put("ok", convert.apply(await(future)));
        } catch (Throwable error) {
            out.put("error", error(error));
        }
        return out;
    }

    private static Exception unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof ExecutionException || cause instanceof CompletionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause instanceof Exception e ? e : new RuntimeException(cause);
    }

    static Map<String, Object> error(Throwable thrown) {
        Throwable error = unwrap(thrown);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", error.getClass().getSimpleName());
        out.put("class", error.getClass().getName());
        out.put("code", Errors.forException(error).name());
        out.put("message", error.getMessage());
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        out.put("cause", root == error ? null : root.getClass().getSimpleName() + ": " + root.getMessage());
        return out;
    }
}
