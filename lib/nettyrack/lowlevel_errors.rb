# frozen_string_literal: true

module Nettyrack
  # Puma's lowlevel_error_handler: when the app raises, the handler is called with the
  # exception, env and the status the server would send (500), and its Rack response is sent
  # instead of the server's 500. A handler that raises, or gives no response, leaves the
  # exception to the server's own 500 (RackBridge), which logs it.
  #
  #   app = LowlevelErrors.new(app, ->(error, env, status) { [status, {}, ["Sorry\n"]] }, err: $stderr)
  #
  # Flow: Launcher wraps the app → worker thread → here → the app; on an exception → the handler.
  class LowlevelErrors
    STATUS = 500

    def initialize(app, handler, err:)
      @app = app
      @handler = handler
      @err = err
    end

    def call(env)
      @app.call(env)
    rescue StandardError, ScriptError => e
      answer(e, env) || raise(e)
    end

    private

    def answer(error, env)
      arguments = [error, env, STATUS]
      arity = @handler.respond_to?(:arity) ? @handler.arity : @handler.method(:call).arity
      response = @handler.call(*arguments.first(arity.negative? ? 3 : arity))
      @err.puts("nettyrack: #{env['REQUEST_METHOD']} #{env['PATH_INFO']}: the app raised #{error.class}: " \
                "#{error.message}; the lowlevel_error_handler answered")
      response.is_a?(Array) && response.size == 3 ? response : nil
    rescue StandardError, ScriptError => e
      @err.puts("nettyrack: the lowlevel_error_handler raised #{e.class}: #{e.message}; the server answers 500")
      nil
    end
  end
end
