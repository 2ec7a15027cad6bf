# frozen_string_literal: true

require_relative "inheritance"
require_relative "warmup"

module Nettyrack
  # A hot restart, seen from the process being replaced (SIGUSR2, SIGUSR1, POST /restart):
  #
  #   Server#handoff (a private unix socket offering every listening socket)
  #   → the same command line started anew: program, arguments, environment and directory as
  #     this process started with (so code, config and Gemfile are read afresh), every
  #     descriptor but stdin/stdout/stderr closed (Java's ProcessBuilder), and the hand-over's
  #     socket in its environment (Inheritance); niced (restart_nice), so that this process,
  #     serving meanwhile, keeps the cores first
  #   → its word, or its exit, or the timeout, as an order for the launcher's loop:
  #     :served (pid): Server#hand_over, then drain as on SIGTERM
  #     :failed (why): say why, keep serving; a later restart may try again
  #
  # One at a time: #start while one is in progress is refused (Lifetime queues such orders
  # and passes them on to the new process once it serves).
  class HotRestart
    # command: [program, *arguments]; env: the environment this process started with; nice: how
    # much lower in priority the new process boots and warms up; recent: whether to hand the
    # server's recent GET requests over for the new process's warm-up (--warmup recent).
    def initialize(server, orders, command:, env:, directory:, timeout:, nice:, recent: false)
      @server = server
      @orders = orders
      @command = command
      @env = env.reject { |name, _| Inheritance::PRIVATE.include?(name) }
      @directory = directory
      @timeout = timeout
      @nice = nice
      @recent = recent
    end

    def in_progress?
      !@process.nil?
    end

    # The pid of the new process booting; nil when none is.
    def pid
      @process&.pid
    end

    # Starts the new process and returns its pid; BootError, saying why, when it cannot.
    def start
      raise BootError, "a hot restart is in progress already (pid #{@process.pid})" if in_progress?

      @handoff = @server.handoff
      @process = spawn(@handoff)
      @watch = watch(@process, @handoff)
      @process.pid
    rescue Error, Java::JavaIo::IOException => e
      finish unless e.message.start_with?("a hot restart is in progress")
      raise BootError, e.message
    end

    # The new process serves: the hand-over is done.
    def served
      finish
    end

    # The new process will not serve: make sure it is gone, and let a later restart try again.
    def failed
      process = @process
      finish
      return unless process&.alive?

      process.destroy
      process.destroy_forcibly unless process.wait_for(10, java.util.concurrent.TimeUnit::SECONDS)
    end

    # A stop came first: the new process goes (it serves nothing yet).
    def abort
      failed
    end

    private

    # The new process starts niced (nice(1)): while it boots and warms up, the cores go to this
    # one, which serves; once it serves it comes back to this one's values (Inheritance).
    def spawn(handoff)
      command = @command.map(&:to_s)
      command = ["nice", "-n", @nice.to_s, *command] if @nice.positive?
      builder = java.lang.ProcessBuilder.new(command)
      builder.directory(java.io.File.new(@directory))
      environment = builder.environment
      environment.clear
      @env.each { |name, value| environment.put(name, value) }
      environment.put(Inheritance::HANDOFF, handoff.socket)
      environment.put(Inheritance::HANDOFF_FDS, handoff.count.to_s)
      environment.put(Warmup::RECENT, @recent_file = Warmup.write_recent(@server.recent_requests)) if @recent
      environment.put(Inheritance::NICE_AFTER, Java::OrgNettyrackCore::ProcessNice.current.to_s) if @nice.positive?
      builder.inherit_io.start
    rescue Java::JavaIo::IOException => e
      raise BootError, "cannot start #{@command.first}: #{e.message}"
    rescue SystemCallError => e
      raise BootError, "cannot hand the recent requests over for the warm-up: #{Nettyrack.describe_system_error(e)}"
    end

    # A thread of ours waits for the first of the new process's word and its exit, within the
    # timeout, and passes the outcome on as an order.
    def watch(process, handoff)
      Thread.new do
        outcome = handoff.outcome
        either = java.util.concurrent.CompletableFuture.any_of(outcome, process.on_exit)
        begin
          either.get((@timeout * 1000).round, java.util.concurrent.TimeUnit::MILLISECONDS)
          settle(process, outcome)
        rescue java.util.concurrent.TimeoutException
          @orders.request(:failed, "hot restart", "the new process (pid #{process.pid}) did not serve within #{@timeout} s")
        rescue java.util.concurrent.ExecutionException
          settle(process, outcome)
        end
      end.tap { |thread| thread.name = "nettyrack-hot-restart" }
    end

    # :served carries the pid the new process said it has (the server's own, also when the
    # command started it through a wrapper).
    def settle(process, outcome)
      pid = outcome.get(1, java.util.concurrent.TimeUnit::SECONDS) # the word, when the exit raced it
      @orders.request(:served, "hot restart", pid)
    rescue java.util.concurrent.ExecutionException => e
      gone = !process.alive? && e.cause.message.include?("went away")
      why = gone ? exited(process) : "the new process (pid #{process.pid}): #{e.cause.message}"
      @orders.request(:failed, "hot restart", why)
    rescue java.util.concurrent.TimeoutException
      @orders.request(:failed, "hot restart", exited(process))
    end

    def exited(process)
      "the new process (pid #{process.pid}) exited with status #{process.exit_value} before it served"
    end

    def finish
      @handoff&.close
      @handoff = nil
      @process = nil
      File.delete(@recent_file) if @recent_file && File.exist?(@recent_file)
      @recent_file = nil
    end
  end
end
