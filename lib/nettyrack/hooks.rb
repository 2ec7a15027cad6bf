# frozen_string_literal: true

module Nettyrack
  # The blocks a config file hands the server's life (on_booted, on_restart, on_stopped, and
  # on_worker_boot / on_worker_shutdown, which run once here), run at their event in the order
  # given. A block that raises is said in one line on err, and the server goes on, as Puma does.
  #
  #   hooks = Hooks.new({ booted: [-> { puts "up" }] }, err: $stderr)
  #   hooks.run(:booted)
  #
  # Flow: PumaDSL (the :hooks setting) → Configuration → Lifetime → here, at each event.
  class Hooks
    # Puma hands worker hooks the worker's index: here always 0, the one process.
    ARGUMENTS = { worker_boot: [0], worker_shutdown: [0] }.freeze

    def initialize(hooks, err:)
      @hooks = hooks || {}
      @err = err
    end

    def run(event)
      @hooks.fetch(event, []).each { |hook| call(event, hook) }
    end

    private

    def call(event, hook)
      arguments = ARGUMENTS.fetch(event, [])
      hook.call(*arguments.first(hook.arity.negative? ? arguments.size : hook.arity))
    rescue StandardError, ScriptError => e
      frame = e.backtrace_locations&.first
      @err.puts("nettyrack: the #{event} hook raised #{e.class}: #{e.message}#{" (#{frame.path}:#{frame.lineno})" if frame}")
    end
  end
end
