import { BrowserRouter, Route, Routes } from 'react-router';

export function AppRouter() {
  return (
    <BrowserRouter>
      <Routes>
        <Route path="*" element={<div>Pagewatch</div>} />
      </Routes>
    </BrowserRouter>
  );
}
