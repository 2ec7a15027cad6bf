# A one-file Rails app: `script/server examples/rails/config.ru`
require "rails"
require "action_controller/railtie"

class MyApp < Rails::Application
  config.eager_load = true # production Rails must: lazily built code races between threads
  # As a generated app's production.rb says: no code reloading. Without it every request checks
  # the source files' mtimes and takes Rails' load interlock (ActionDispatch::Reloader, Executor).
  config.cache_classes = true
  config.secret_key_base = "x" * 64
  config.hosts.clear
  config.logger = Logger.new($stderr)
  config.log_level = :warn
  routes.append do
    root to: "hello#index"
    get "/json/:n" => "api#show"
  end
end

class HelloController < ActionController::Base
  def index
    render plain: "hello from Rails #{Rails.version} on #{RUBY_ENGINE}\n"
  end
end

class ApiController < ActionController::API
  def show
    render json: { n: params[:n].to_i * 2, engine: RUBY_ENGINE, rails: Rails.version }
  end
end

MyApp.initialize!
run MyApp
