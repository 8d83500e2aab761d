import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.Permission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs Kafka's command-line tools in one JVM, one command line at a time, as Kafka's own tool tests
 * do (ToolsTestUtils): each tool's {@code main} with Kafka's Exit procedures replaced, System.out,
 * System.err and System.in swapped for buffers.
 *
 * Line protocol on the JVM's own stdout: a request is one JSON object per line,
 * {"class": main class, "args": [..], "stdin": text}; the answer is one line starting with
 * {@code ANSWER_PREFIX}, {"code": exit status, "stdout": .., "stderr": ..}. Anything else on the
 * JVM's stdout is not an answer (a tool may hold on to a stream it saw before the swap).
 *
 * Only Kafka's public tool classes are named, by reflection, so one compiled driver serves every
 * Kafka release: Exit lives in org.apache.kafka.common.utils.internals from 4.4 on, in
 * org.apache.kafka.common.utils before. argparse4j's parseArgsOrFail (kafka-cluster) calls
 * System.exit itself; a security manager turns that into an exit status too, where the JVM still
 * allows one (Java 17-23); without it such a command line ends the JVM, which the caller sees.
 */
public final class ToolDriver {
    static final String ANSWER_PREFIX = "@@answer ";

    /** Thrown by the replaced exit procedures: unwinds the tool's main with its status. */
    static final class ExitCalled extends RuntimeException {
        final int code;

        ExitCalled(int code) {
            super("exit " + code, null, false, false);
            this.code = code;
        }
    }

    /**
     * The first exit of the current run: its status and how much the tool had written by then. A real
     * process ends there; here the exception unwinds through the tool's catch-all handlers, which may
     * print and exit again, so what came after the first exit is dropped.
     */
    private static ExitCalled firstExit;
    private static int outAtExit;
    private static int errAtExit;
    private static ByteArrayOutputStream currentOut;
    private static ByteArrayOutputStream currentErr;

    private static synchronized ExitCalled exitCalled(int code) {
        if (firstExit == null) {
            System.out.flush();
            System.err.flush();
            firstExit = new ExitCalled(code);
            outAtExit = currentOut == null ? 0 : currentOut.size();
            errAtExit = currentErr == null ? 0 : currentErr.size();
        }
        return new ExitCalled(code);
    }

    public static void main(String[] argv) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        PrintStream log = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        replaceExitProcedures();
        boolean exitTrapped = trapSystemExit(log);
        BufferedReader requests = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        Map<String, Object> ready = new LinkedHashMap<>();
        ready.put("ready", true);
        ready.put("system_exit_trapped", exitTrapped);
        answers.println(ANSWER_PREFIX + Json.write(ready));
        String line;
        while ((line = requests.readLine()) != null) {
            if (line.isBlank()) {
                continue;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> request = (Map<String, Object>) Json.parse(line);
            answers.println(ANSWER_PREFIX + Json.write(run(request, log)));
        }
        System.setSecurityManager(null);
        Runtime.getRuntime().halt(0);  // the tools' Admin clients may leave non-daemon threads
    }

    private static Map<String, Object> run(Map<String, Object> request, PrintStream log) {
        String mainClass = (String) request.get("class");
        @SuppressWarnings("unchecked")
        List<Object> rawArgs = (List<Object>) request.get("args");
        String[] args = rawArgs.stream().map(String::valueOf).toArray(String[]::new);
        Object stdinText = request.get("stdin");
        byte[] stdin = stdinText == null ? new byte[0] : ((String) stdinText).getBytes(StandardCharsets.UTF_8);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        InputStream savedIn = System.in;
        PrintStream toolOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream toolErr = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code;
        synchronized (ToolDriver.class) {
            firstExit = null;
            currentOut = out;
            currentErr = err;
        }
        System.setOut(toolOut);
        System.setErr(toolErr);
        System.setIn(new ByteArrayInputStream(stdin));
        Object[] scalaStreams = swapScalaConsole(toolOut, toolErr);
        try {
            Method main = Class.forName(mainClass).getMethod("main", String[].class);
            main.invoke(null, (Object) args);
            code = 0;
        } catch (InvocationTargetException e) {
            code = statusOf(e.getCause(), toolErr);
        } catch (ExitCalled e) {
            code = e.code;
        } catch (Throwable e) {
            log.println("driver: cannot run " + mainClass + ": " + e);
            e.printStackTrace(toolErr);
            code = 1;
        } finally {
            toolOut.flush();
            toolErr.flush();
            restoreScalaConsole(scalaStreams);
            System.setOut(savedOut);
            System.setErr(savedErr);
            System.setIn(savedIn);
        }
        byte[] outBytes = out.toByteArray();
        byte[] errBytes = err.toByteArray();
        synchronized (ToolDriver.class) {
            if (firstExit != null) {
                code = firstExit.code;
                outBytes = java.util.Arrays.copyOf(outBytes, outAtExit);
                errBytes = java.util.Arrays.copyOf(errBytes, errAtExit);
            }
            currentOut = null;
            currentErr = null;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("code", code);
        answer.put("stdout", new String(outBytes, StandardCharsets.UTF_8));
        answer.put("stderr", new String(errBytes, StandardCharsets.UTF_8));
        return answer;
    }

    /** The status of a tool whose main threw: its exit call, else what the JVM does (trace, 1). */
    private static int statusOf(Throwable thrown, PrintStream toolErr) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof ExitCalled exit) {
                return exit.code;
            }
        }
        toolErr.print("Exception in thread \"main\" ");
        thrown.printStackTrace(toolErr);
        return 1;
    }

    /** Kafka's Exit.setExitProcedure / setHaltProcedure, whichever package this release keeps Exit in. */
    private static void replaceExitProcedures() throws Exception {
        Class<?> exit;
        try {
            exit = Class.forName("org.apache.kafka.common.utils.internals.Exit");
        } catch (ClassNotFoundException e) {
            exit = Class.forName("org.apache.kafka.common.utils.Exit");
        }
        Class<?> procedure = Class.forName(exit.getName() + "$Procedure");
        Object throwing = Proxy.newProxyInstance(
            procedure.getClassLoader(),
            new Class<?>[] {procedure},
            (proxy, method, methodArgs) -> {
                if (method.getDeclaringClass() == Object.class) {
                    return method.getName().equals("hashCode") ? 0 : method.getName().equals("equals") ? proxy == methodArgs[0] : "exit";
                }
                throw exitCalled((Integer) methodArgs[0]);
            });
        exit.getMethod("setExitProcedure", procedure).invoke(null, throwing);
        exit.getMethod("setHaltProcedure", procedure).invoke(null, throwing);
    }

    @SuppressWarnings("removal")
    private static boolean trapSystemExit(PrintStream log) {
        try {
            System.setSecurityManager(new SecurityManager() {
                @Override
                public void checkPermission(Permission permission) {
                }

                @Override
                public void checkPermission(Permission permission, Object context) {
                }

                @Override
                public void checkExit(int status) {
                    throw exitCalled(status);
                }
            });
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            log.println("driver: System.exit cannot be trapped on this JVM: " + e);
            return false;
        }
    }

    /**
     * Scala's println writes to scala.Console.out, a per-thread variable that copied System.out when
     * Console was first used; the Scala tools (kafka-configs before 4.4) need it swapped too.
     * Returns the streams to restore, or null without Scala.
     */
    private static Object[] swapScalaConsole(PrintStream out, PrintStream err) {
        try {
            Object console = Class.forName("scala.Console$").getField("MODULE$").get(null);
            Object[] saved = new Object[2];
            String[] names = {"outVar", "errVar"};
            PrintStream[] streams = {out, err};
            for (int i = 0; i < 2; i++) {
                Field field = console.getClass().getDeclaredField(names[i]);
                field.setAccessible(true);
                Object variable = field.get(console);
                saved[i] = variable.getClass().getMethod("value").invoke(variable);
                variable.getClass().getMethod("value_$eq", Object.class).invoke(variable, streams[i]);
            }
            return saved;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static void restoreScalaConsole(Object[] saved) {
        if (saved == null) {
            return;
        }
        try {
            Object console = Class.forName("scala.Console$").getField("MODULE$").get(null);
            String[] names = {"outVar", "errVar"};
            for (int i = 0; i < 2; i++) {
                Field field = console.getClass().getDeclaredField(names[i]);
                field.setAccessible(true);
                Object variable = field.get(console);
                variable.getClass().getMethod("value_$eq", Object.class).invoke(variable, saved[i]);
            }
        } catch (ReflectiveOperationException | RuntimeException e) {
            // nothing swapped, nothing to restore
        }
    }
}
