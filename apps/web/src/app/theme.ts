import { createTheme } from '@mantine/core';

// Breakpoints from spec section 9: under 600, 600-959, 960-1279, 1280 and more.
export const theme = createTheme({
  primaryColor: 'blue',
  breakpoints: { xs: '37.5em', sm: '60em', md: '80em', lg: '90em', xl: '120em' },
  components: {
    // A closed select's options are made when it opens. Kept mounted (Mantine's default), a
    // grid's filter row made every lookup's list of options, hidden, and placed each list by
    // its input on the first render (issue 22: ten lists on the devices screen).
    Combobox: { defaultProps: { keepMounted: false } },
  },
});
