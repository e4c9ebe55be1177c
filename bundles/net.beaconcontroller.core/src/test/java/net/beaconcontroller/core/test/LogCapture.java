package net.beaconcontroller.core.test;

import java.util.List;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

/** The lines one class logs while it is open, for tests that assert what an operator would read. */
public final class LogCapture implements AutoCloseable {
    /** One logged line: its level and its message with the arguments filled in, and the exception's class if any. */
    public record Line(String level, String message, String thrown) { }

    private final Logger logger;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(Class<?> source) {
        logger = (Logger) LoggerFactory.getLogger(source);
        appender.start();
        logger.addAppender(appender);
    }

    public static LogCapture of(Class<?> source) {
        return new LogCapture(source);
    }

    /** The lines of {@code level} (e.g. "WARN") or above logged so far. */
    public List<Line> lines(String level) {
        var min = Level.toLevel(level);
        synchronized (appender) {
            return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(min))
                    .map(e -> new Line(e.getLevel().toString(), e.getFormattedMessage(),
                            e.getThrowableProxy() == null ? null : e.getThrowableProxy().getClassName()))
                    .toList();
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}
