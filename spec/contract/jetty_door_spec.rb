# frozen_string_literal: true

# spec/fixtures/contract_app through the servlet door: its WAR at /shop in embedded Jetty, booted once for
# the whole contract (spec/support/contract, spec/support/contract_doors.rb).
RSpec.describe "the Rack contract through Jetty" do
  include_examples "the whole Rack contract", :jetty
end
